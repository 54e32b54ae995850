"""RG: gold checks and discipline (`evaltools gold ...`)."""
