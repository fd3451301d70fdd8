"""compat/fleet/: doctor on every node (report files, a real Ray cluster), merged."""
