"""A scripted fake implementing LlamaIndex's LLM interface (complete, chat, stream_complete, stream_chat), and
real OpenAI-client errors (what Groq's client raises) for 429 / 401 / timeouts. Nothing touches the network."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

import httpx
import openai
from llama_index.core.base.llms.types import (
    ChatMessage,
    ChatResponse,
    ChatResponseGen,
    CompletionResponse,
    CompletionResponseGen,
    LLMMetadata,
    MessageRole,
)
from llama_index.core.llms import CustomLLM
from llama_index.core.llms.callbacks import llm_chat_callback, llm_completion_callback
from pydantic import Field, PrivateAttr

_REQUEST = httpx.Request("POST", "https://api.groq.com/openai/v1/chat/completions")


def rate_limit_error(headers: dict[str, str] | None = None) -> openai.RateLimitError:
    """The exception Groq's OpenAI-compatible client raises on HTTP 429 (with the response ``headers`` given, e.g.
    ``{"retry-after": "7"}``)."""
    response = httpx.Response(429, request=_REQUEST, headers=headers or {})
    return openai.RateLimitError("Rate limit reached", response=response, body=None)


def auth_error() -> openai.AuthenticationError:
    """The exception raised on HTTP 401 (the message echoes nothing secret)."""
    return openai.AuthenticationError("Invalid API Key", response=httpx.Response(401, request=_REQUEST), body=None)


def server_error() -> openai.InternalServerError:
    return openai.InternalServerError("boom", response=httpx.Response(500, request=_REQUEST), body=None)


def timeout_error() -> openai.APITimeoutError:
    return openai.APITimeoutError(request=_REQUEST)


Reply = str | BaseException | Callable[[str], str]


class ScriptedLLM(CustomLLM):
    """Replies from ``script`` (consumed in order; an exception item is raised) or from ``respond(text)``.

    Every call is recorded in ``calls`` as ``{"kind", "text", "messages"}`` where ``text`` is the prompt (or the
    messages joined). Streams send their "request" lazily, on the first ``next()``, like OpenAI-style clients.
    """

    script: list[Any] = Field(default_factory=list)
    respond: Any = None
    model_name: str = "scripted-fake"
    words_per_piece: int = 2
    calls: list[dict[str, Any]] = Field(default_factory=list)
    _lock: Any = PrivateAttr(default_factory=threading.Lock)

    @classmethod
    def class_name(cls) -> str:
        return "scripted_fake"

    @property
    def metadata(self) -> LLMMetadata:
        return LLMMetadata(model_name=self.model_name, is_chat_model=True)

    def _reply(self, kind: str, text: str, messages: Sequence[ChatMessage] | None = None) -> str:
        with self._lock:
            self.calls.append({"kind": kind, "text": text, "messages": list(messages or [])})
            item: Reply | None = self.script.pop(0) if self.script else None
        if item is None:
            if self.respond is None:
                raise AssertionError(f"ScriptedLLM: unexpected {kind} call")
            item = self.respond
        if isinstance(item, BaseException):
            raise item
        if callable(item):
            return item(text)
        return item

    def _pieces(self, text: str) -> list[str]:
        words = text.split(" ")
        n = self.words_per_piece
        return [" ".join(words[i : i + n]) + (" " if i + n < len(words) else "") for i in range(0, len(words), n)]

    @llm_completion_callback()
    def complete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> CompletionResponse:
        return CompletionResponse(text=self._reply("complete", prompt))

    @llm_completion_callback()
    def stream_complete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> CompletionResponseGen:
        def gen() -> CompletionResponseGen:
            text = self._reply("stream_complete", prompt)
            acc = ""
            for piece in self._pieces(text):
                acc += piece
                yield CompletionResponse(text=acc, delta=piece)

        return gen()

    @llm_chat_callback()
    def chat(self, messages: Sequence[ChatMessage], **kwargs: Any) -> ChatResponse:
        text = self._reply("chat", _join(messages), messages)
        return ChatResponse(message=ChatMessage(role=MessageRole.ASSISTANT, content=text))

    @llm_chat_callback()
    def stream_chat(self, messages: Sequence[ChatMessage], **kwargs: Any) -> ChatResponseGen:
        def gen() -> ChatResponseGen:
            text = self._reply("stream_chat", _join(messages), messages)
            acc = ""
            for piece in self._pieces(text):
                acc += piece
                yield ChatResponse(message=ChatMessage(role=MessageRole.ASSISTANT, content=acc), delta=piece)

        return gen()


def _join(messages: Sequence[ChatMessage]) -> str:
    return "\n\n".join(f"{m.role.value}: {m.content}" for m in messages)


def route(**replies: str) -> Callable[[str], str]:
    """A responder choosing the reply by a keyword of the prompt (thread-safe: no order assumed), e.g.
    ``route(hypothetical="…", rephrasings="…", default="…")``; keywords are matched case-insensitively."""
    default = replies.pop("default", None)

    def respond(text: str) -> str:
        low = text.lower()
        for key, reply in replies.items():
            if key.replace("_", " ") in low:
                return reply
        if default is None:
            raise AssertionError(f"no scripted reply for prompt: {text[:80]!r}")
        return default

    return respond
