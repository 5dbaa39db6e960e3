"""The question reader: one reading of a question, by meaning (:class:`~prism.answering.reading.reader.Reader` →
:class:`~prism.types.reading.Reading`). Modules: :mod:`~.words` (shorthand, mentions, frame), :mod:`~.kinds`
(rule-based readings that propose), :mod:`~.entities` (the workspace's entities a question names), :mod:`~.salient`
(words a passage must hold), :mod:`~.formulas` (statement metrics), :mod:`~.followups` and :mod:`~.parts`
(follow-ups and multi-part questions), :mod:`~.model` (the operation model that decides), :mod:`~.reader` (the one
entry point). Import the modules, not the package (the program registry imports the words module)."""
