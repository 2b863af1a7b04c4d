"""Adventures and games: the file format (:mod:`.format`) and play (:mod:`.play`)."""
