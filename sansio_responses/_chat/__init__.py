"""The Chat Completions protocol: chunk and snapshot models, accumulation, the stream facade."""
