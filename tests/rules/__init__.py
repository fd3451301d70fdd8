"""The shipped knowledge base's rules, file by file: every rule's own `affected`/`clear` examples
and tables of environments people really run (false alarms are bugs), through the engine or
`compat doctor`. A new rule's behaviour is its examples in the YAML, not a new test here."""
