"""The operations of the program language, one module each (:mod:`prism.answering.programs.registry` lists them)."""
