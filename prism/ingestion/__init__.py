"""Ingestion: parsing, chunking, document profiles and the pipeline."""
