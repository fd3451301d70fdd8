"""`compat fleet`: doctor on every node of a job (Ray or report files), merged into one report."""
