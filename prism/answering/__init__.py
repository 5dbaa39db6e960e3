"""Answering: a question (and chat history) in, a cited :class:`~prism.types.Answer` out.

Owns the answer engine, extractive answers, citations and the number check, conversation memory and condensing,
the LLM client factory and prompts, web search, briefings and contextual retrieval.

May import: :mod:`prism.retrieval`, :mod:`prism.index` and the ground floor.
"""
