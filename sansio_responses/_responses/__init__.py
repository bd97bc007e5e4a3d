"""The Responses protocol: typed events, response models, accumulation, the stream facade."""
