sqlite:
bench-sqlite:
.PHONY: sqlite bench-sqlite
