"""What each command does, options in and a result out: no option parsing, no output."""
