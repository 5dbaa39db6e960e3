"""The Streamlit side of the app: the only package that imports streamlit.

Page pieces (chat, upload, workspaces, evaluation views), session state, the process-wide resources cache and the
background ingestion jobs. May import from prism only :mod:`prism.service`, :mod:`prism.types`, :mod:`prism.errors`
and :mod:`prism.config`.
"""
