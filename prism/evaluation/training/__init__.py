"""Training the question reader and the program ranker on Prism's own question sets: :mod:`~.examples` (questions
with their gold answers and retrieved chunks), :mod:`~.fit` (the conditional logit), :mod:`~.train` (both models,
cross-fitted, written as JSON)."""
