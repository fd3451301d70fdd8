"""check's judgement of one install: declared requirements as facts, the real resolver's pick
or the offline solve over the snapshot, and the notes that say what was not settled."""
