PG_SRCS =
bench-pg:
.PHONY: bench-pg
