"""With the record's `revision`: the old body read from git, and where that code is now
(by body, in the file git paired the old one with, in the files that took its siblings)."""
