"""``python -m prism``: one module per command group, registered explicitly by :mod:`prism.cli.main`.

``documents`` (ingest, docs, delete, reindex), ``workspaces``, ``search``, ``answer`` (ask) and ``evaluation``
(eval run, eval beir); ``common`` holds what they share (output, the service, progress lines, the parser class).

May import: :mod:`prism.service` and the ground floor (``config``, ``errors``, ``types``).
"""
