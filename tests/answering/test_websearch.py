"""The Tavily adapter against an HTTP-level fake (a requests transport adapter): request shape, trimming, numbering,
and failures that degrade to no results with a warning. Nothing touches the network."""

from __future__ import annotations

import json

import pytest
import requests
import tenacity
from pydantic import SecretStr

from prism.answering.engine import AnswerEngine
from prism.answering.llm import wrap_llms
from prism.answering.websearch import WebSearcher, trim
from prism.config import Settings
from prism.types import IngestItem
from tests.conftest import REPO
from tests.fakes_llm import ScriptedLLM, route

LONG = "RBI raised the UPI Lite wallet limit. " * 60  # ~2,300 characters


class FakeTavily(requests.adapters.BaseAdapter):
    """Answers POST https://api.tavily.com/search with a canned status and body; records requests."""

    def __init__(self, status: int = 200, body: object = None, exc: Exception | None = None):
        super().__init__()
        self.status, self.body, self.exc, self.requests = status, body, exc, []

    def send(self, request, **kwargs):
        self.requests.append({"url": request.url, "headers": dict(request.headers), "body": json.loads(request.body),
                              "timeout": kwargs.get("timeout")})
        if self.exc is not None:
            raise self.exc
        response = requests.Response()
        response.status_code = self.status
        response._content = (self.body if isinstance(self.body, bytes) else json.dumps(self.body).encode())
        response.headers["Content-Type"] = "application/json"
        response.url, response.request = request.url, request
        return response

    def close(self):
        pass


def searcher(adapter: FakeTavily, **kw) -> WebSearcher:
    session = requests.Session()
    session.mount("https://", adapter)
    session.mount("http://", adapter)
    return WebSearcher("tvly-test-key", session=session, **kw)


RESULTS = {
    "query": "q",
    "results": [
        {"title": "RBI press release", "url": "https://rbi.org.in/a", "content": LONG, "score": 0.9},
        {"title": "", "url": "https://npci.org.in/b", "content": "NPCI   circular\n on UPI Lite.", "score": 0.8},
        {"title": "Third", "url": "https://example.org/c", "content": "more", "score": 0.7},
    ],
}


def test_search_request_shape_trimming_and_numbering():
    fake = FakeTavily(body=RESULTS)
    outcome = searcher(fake, timeout_s=7).search("  What is the UPI Lite limit?  ")
    [req] = fake.requests
    assert req["url"] == "https://api.tavily.com/search"
    assert req["headers"]["Authorization"] == "Bearer tvly-test-key"
    assert req["body"]["query"] == "What is the UPI Lite limit?"
    assert (req["body"]["search_depth"], req["body"]["max_results"]) == ("advanced", 2)
    assert req["timeout"] == 7
    assert outcome.warning is None and [w.n for w in outcome.results] == [1, 2]
    first, second = outcome.results
    assert len(first.content) <= 800 and first.content.endswith("…") and LONG.startswith(first.content[:-1])
    assert (second.title, second.content) == ("https://npci.org.in/b", "NPCI circular on UPI Lite.")


@pytest.mark.parametrize(
    ("adapter", "needle"),
    [
        (FakeTavily(401, {"detail": {"error": "Unauthorized"}}), "rejected the API key"),
        (FakeTavily(429, {"detail": {"error": "limit"}}), "usage limit"),
        (FakeTavily(432, {"detail": {"error": "plan"}}), "refused"),
        (FakeTavily(500, {"detail": {"error": "oops"}}), "request failed (HTTPError)"),
        (FakeTavily(exc=requests.exceptions.ConnectTimeout("slow")), "did not answer in time"),
        (FakeTavily(exc=requests.exceptions.ConnectionError("offline")), "could not be reached"),
        (FakeTavily(200, b"<html>not json"), "request failed"),
        (FakeTavily(200, {"results": "nope"}), "malformed"),
        (FakeTavily(200, {"results": []}), "found nothing"),
    ],
)
def test_failures_never_raise(adapter, needle):
    outcome = searcher(adapter).search("UPI Lite")
    assert outcome.results == [] and needle in outcome.warning
    assert "tvly-test-key" not in outcome.warning


def test_configuration():
    assert WebSearcher.from_settings(Settings(tavily_api_key=None)) is None
    ws = WebSearcher.from_settings(Settings(tavily_api_key=SecretStr("tvly-x"), web_max_results=3, web_max_chars=200))
    assert (ws.max_results, ws.max_chars, ws.depth) == (3, 200, "advanced")
    with pytest.raises(ValueError, match="key"):
        WebSearcher(" ")
    assert trim("a  b\n c", 100) == "a b c" and len(trim("word " * 100, 50)) <= 50


def test_web_blocks_reach_the_prompt_and_the_answer(service):
    service.ingest([IngestItem(REPO / "data" / "sample" / "meridian_bank_upi_operating_circular.pdf")], "w",
                   briefing=False)
    fake_llm = ScriptedLLM(respond=route(documents="The cap is ₹5,000 [1]; NPCI says so too [W2][W3]."))
    adapter = FakeTavily(body=RESULTS)
    engine = AnswerEngine(service.open("w").retriever, service.embedder, service.settings,
                          wrap_llms(fake_llm, wait=tenacity.wait_none()), searcher(adapter))
    answer = engine.ask("What is the cooling period cap after a new device?", web=True, hyde=False,
                        multi_query=False)
    assert len(adapter.requests) == 1 and answer.timings_ms["web"] is not None
    assert [w.n for w in answer.web] == [1, 2] and answer.web[1].url == "https://npci.org.in/b"
    prompt = fake_llm.calls[-1]["messages"][-1].content
    assert "[W1] web: RBI press release (https://rbi.org.in/a)" in prompt and "<web_results>" in prompt
    assert answer.answer.endswith("[W2].") and "[W3]" in answer.message  # W3 pointed nowhere
    assert all(c.source.endswith(".pdf") for c in answer.citations)  # web never mixed into document citations

    broken = AnswerEngine(service.open("w").retriever, service.embedder, service.settings,
                          wrap_llms(ScriptedLLM(respond=route(documents="₹5,000 [1].")), wait=tenacity.wait_none()),
                          searcher(FakeTavily(429, {})))
    degraded = broken.ask("What is the cooling period cap after a new device?", web=True, hyde=False,
                          multi_query=False)
    assert degraded.web == [] and "usage limit" in degraded.message and degraded.citations

    no_key = AnswerEngine(service.open("w").retriever, service.embedder, service.settings, None, None)
    assert "no Tavily API key" in no_key.ask("What is the cooling period cap?", web=True).message
