"""The Evaluation page's pieces: :mod:`~.view` (the page), :mod:`~.tables` (the frames it shows) and
:mod:`~.compare` (two runs side by side). Imports, like all of :mod:`prism.ui`, only the facade and the ground floor.
"""
