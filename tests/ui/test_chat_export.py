"""The chat's Markdown export is what the analyst saw (issue 41 B, case 80): the notes the chat draws under an
answer (an answer cut off, citation markers removed), and a cited document deleted or replaced since marked as no
longer in the workspace. Built the way the Chat page builds a conversation: a real service (real embedder, Chroma,
BM25) answering through a scripted language model whose first stream breaks mid-answer, each answer saved as a
turn of the workspace's conversation store; the export called as pages/chat_page.py calls it."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import tenacity

from prism.answering.llm import wrap_llms
from prism.config import Settings
from prism.service import PrismService, document_title
from prism.types import ChatTurn, IngestItem
from prism.ui.chat_view import _notes
from prism.ui.explain import literal
from prism.ui.export import REMOVED, REPLACED, conversation_markdown, shown_notes
from tests.fakes_llm import ScriptedLLM

WS = "Payments"
CIRCULAR = (b"Settlement of UPI transactions: revised cut-off and reconciliation\n\n"
            b"1. Member banks shall complete the reconciliation of each settlement cycle within two hours of the "
            b"cycle's close.\n2. A member bank that fails to reconcile within the time allowed pays a penalty of "
            b"Rs. 500 per cycle of delay, capped at Rs. 50,000 per calendar month.\n")
FAQ = (b"Chargebacks on UPI P2M transactions: frequently asked questions\n\n"
       b"Q1. Within how many days can a customer raise a chargeback? A chargeback can be raised within 60 days of "
       b"the transaction date.\nQ2. What is the turnaround time for a failed credit? It is reversed by T+1.\n")
CUT = "<CUT>"


class BreakingLLM(ScriptedLLM):
    """A scripted model whose streamed reply ending in ``<CUT>`` breaks after the words before it (the connection
    reset mid-answer). The script is the streamed answers, in order; any other call (the program call the answer step
    makes when the reader is unsure which calculation a question asks for) is recorded and proposes nothing, so the
    reader's choice stands."""

    def _reply(self, kind: str, text: str, messages=None) -> str:
        if kind == "stream_chat":
            return super()._reply(kind, text, messages)
        with self._lock:
            self.calls.append({"kind": kind, "text": text, "messages": list(messages or [])})
        return ""

    def stream_chat(self, messages, **kwargs: Any):
        text = self._reply("stream_chat", "\n\n".join(str(m.content) for m in messages), messages)
        cut = text.endswith(CUT)
        pieces = self._pieces(text.removesuffix(CUT))

        def gen():
            from llama_index.core.base.llms.types import ChatMessage, ChatResponse, MessageRole

            acc = ""
            for piece in pieces:
                acc += piece
                yield ChatResponse(message=ChatMessage(role=MessageRole.ASSISTANT, content=acc), delta=piece)
            if cut:
                raise TimeoutError("the connection to the model was reset mid-answer")

        return gen()


def _ask(svc: PrismService, store, conversation_id: str, question: str) -> ChatTurn:
    turn = ChatTurn(question, retrieval_mode=svc.settings.retrieval_mode)
    stream = svc.ask(question, WS, history=store.get(conversation_id).memory(), hyde=False, multi_query=False,
                     stream=True)
    "".join(iter(stream))
    turn = replace(turn, answer=stream.answer.to_dict())
    store.append(conversation_id, turn)
    return turn


def test_the_export_has_the_chats_notes_and_marks_a_deleted_document(prism_home, embedder):
    llm = BreakingLLM(script=[
        "Member banks must reconcile each settlement cycle within two hours of its close [1]. A bank that is late "
        "pays a penalty [9] of" + CUT,
        "A customer can raise a chargeback within 60 days of the transaction date [1]."], respond="")
    settings = Settings(home=prism_home)
    svc = PrismService(settings, embedder=embedder, llms=wrap_llms(llm, settings=settings, wait=tenacity.wait_none()))
    svc.ingest([IngestItem(CIRCULAR, "upi_settlement_circular.txt"), IngestItem(FAQ, "chargeback_faq.txt")], WS,
               briefing=False)
    store = svc.conversations(WS)
    conversation = store.create()
    first = _ask(svc, store, conversation.id, "How quickly must a member bank reconcile each settlement cycle?")
    second = _ask(svc, store, conversation.id, "Within how many days can a customer raise a chargeback?")
    notes = shown_notes(first.answer)
    assert [n.split(":")[0] for n in notes] == ["The answer was cut off", "Removed citation marker(s) pointing to no "
                                                                          "source"]
    assert _notes(first.answer) == literal(" ".join(notes))  # the chat draws exactly these
    assert [c["source"] for c in second.answer["citations"]] == ["chargeback_faq.txt"]

    svc.delete_document("chargeback_faq.txt", WS)
    docs = svc.documents(WS)
    saved = store.get(conversation.id)
    md = conversation_markdown(WS, saved.turns, saved.info.title, titles={d.source: document_title(d) for d in docs},
                               doc_ids={d.source: d.doc_id for d in docs})
    one, two = md.split("## 2. ")
    assert "**Notes**\n\n" + "".join(f"- {n}\n" for n in notes) in one
    assert "- [1] upi_settlement_circular.txt — “Settlement of UPI transactions" in one  # still there: unmarked
    assert f"- [1] chargeback_faq.txt ({REMOVED}) — “Chargebacks on UPI P2M transactions" in two
    assert "**Notes**" not in two  # nothing to note under the second answer


def test_a_replaced_document_and_the_scope_are_written_as_the_chat_shows_them():
    answer = {"answer": "The limit is ₹2,000 [1].", "mode": "extractive",
              "notes": [{"kind": "extractive", "text": "Extractive answer (no LLM configured)."},
                        {"kind": "degraded", "text": "HyDE and multi-query are off: no LLM is configured."},
                        {"kind": "unsupported_figures", "text": "Check these figures: ₹9,999"}],
              "scope": {"auto": True, "entities": ["Meridian Bank Ltd"], "periods": ["Q3 FY2024"],
                        "removed": ["FY2023"]},
              "calculation": {"metric": "net interest margin", "result": "3.81%", "formula": "NII / average assets",
                              "missing": []},
              "citations": [{"n": 1, "source": "limits.pdf", "chunk_id": "aaaaaaaaaaaaaaaa-00003", "page_start": 2,
                             "text": "The limit is ₹2,000."}]}
    md = conversation_markdown("WS", [ChatTurn("Limit?", answer, retrieval_mode="hybrid")],
                               titles={"limits.pdf": "UPI limits"}, doc_ids={"limits.pdf": "b" * 64})
    assert ("_Documents: all in the workspace · Scope: Meridian Bank Ltd, Q3 FY2024 (read from the question) · "
            "asked again without FY2023 in the scope · Retrieval: hybrid_") in md
    assert "**Notes**\n\n- HyDE and multi-query are off: no LLM is configured.\n\n" in md  # the chat's caption
    assert "Extractive answer (no LLM configured)" not in md and "Check these figures: ₹9,999" not in md
    assert "_Calculation: net interest margin = 3.81% · Formula: NII / average assets_" in md
    assert f"- [1] UPI limits (limits.pdf), page 2 ({REPLACED}) — “The limit is ₹2,000.”" in md
    same = conversation_markdown("WS", [ChatTurn("Limit?", answer)], titles={"limits.pdf": "UPI limits"},
                                 doc_ids={"limits.pdf": "a" * 64})
    assert "no longer in the workspace" not in same  # the same version: unmarked
    assert "no longer" not in conversation_markdown("WS", [ChatTurn("Limit?", answer)])  # nothing known: unmarked
