"""JSON decoding shared by both protocols: full, partial and structured outputs."""
