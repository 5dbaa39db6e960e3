"""Figure answers as programs over cited table cells: :mod:`~.operation` and :mod:`~.registry` (the operations, one
module each under :mod:`~.operations`), :mod:`~.binding` (binding a reading's slots to cells), :mod:`~.ranker` (the
learned ranker over candidate programs), :mod:`~.answer` (choosing one), :mod:`~.writing` (the answer's words) and
their helpers. Import the modules, not the package."""
