"""What the command line does, without the command line: rules from options, tables found or built,
progress on stderr, and every command's text. ``cli.py`` maps options to these and prints; nothing
here imports click or exits."""
