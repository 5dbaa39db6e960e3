"""Conversation memory (window of the last turns) and condensing follow-ups (fake LLM; heuristic)."""

from __future__ import annotations

import pytest
import tenacity

from prism.answering.conversation import (
    Conversation,
    condense,
    condense_heuristic,
    history_messages,
    history_turns,
    is_followup,
)
from prism.answering.llm import LLMClient
from prism.config import Settings
from prism.errors import LLMAuthError
from prism.types import Turn
from tests.fakes_llm import ScriptedLLM, auth_error, server_error

P2P = "What is the P2P limit for UPI?"


def llm(fake: ScriptedLLM) -> LLMClient:
    return LLMClient(fake, "fake-small", max_attempts=2, wait=tenacity.wait_none())


def test_memory_keeps_the_last_ten_of_eleven_turns():
    conv = Conversation(max_turns=Settings().memory_turns)
    for i in range(1, 12):
        conv.add(f"q{i}", f"a{i}")
    assert len(conv) == 10
    assert [t.question for t in conv.turns] == [f"q{i}" for i in range(2, 12)]
    assert history_turns(conv, 3) == conv.turns[-3:]
    assert history_turns([Turn("a", "b")], 10)[0].question == "a"
    assert history_turns(None, 10) == [] and not Conversation()
    conv.clear()
    assert len(conv) == 0
    with pytest.raises(ValueError, match="at least 1"):
        Conversation(max_turns=0)


def test_history_messages_drop_old_citation_markers():
    msgs = history_messages([Turn(P2P, "The limit is ₹1 lakh [1, 2]. See also [W1].")])
    assert [m.role.value for m in msgs] == ["user", "assistant"]
    assert msgs[1].content == "The limit is ₹1 lakh. See also."


@pytest.mark.parametrize(
    ("followup", "previous", "expected"),
    [
        ("What about P2M?", P2P, "What is the P2M limit for UPI?"),
        ("And FY2023?", "What was the UPI volume in FY2024?", "What was the UPI volume in FY2023?"),
        ("What is its cooling period?", "How does UPI Lite work?", "What is its cooling period (UPI Lite)?"),
        ("What about merchants?", P2P, "What about merchants (P2P limit UPI)?"),
    ],
)
def test_heuristic_carries_previous_key_terms(followup, previous, expected):
    assert condense_heuristic(followup, [Turn(previous, "…")]) == expected


def test_heuristic_leaves_standalone_questions_alone():
    standalone = "How are chargebacks on merchant disputes handled by the acquiring bank?"
    assert not is_followup(standalone)
    assert condense_heuristic(standalone, [Turn(P2P, "…")]) == standalone
    assert condense_heuristic("What about P2M?", []) == "What about P2M?"
    # the previous *standalone* form is what is carried forward
    assert condense_heuristic("and P2M?", [Turn("what about P2P?", "…", P2P)]) == "What is the P2M limit for UPI?"


def test_condense_without_history_makes_no_call():
    fake = ScriptedLLM()
    result = condense("  What about P2M?  ", None, llm(fake))
    assert (result.query, result.method) == ("What about P2M?", "none") and fake.calls == []


def test_condense_with_llm_sends_history_and_cleans_reply():
    fake = ScriptedLLM(script=['Standalone question: "What is the P2M limit for UPI?"\nExtra line'])
    result = condense("What about P2M?", [Turn(P2P, "₹1 lakh [1].")], llm(fake))
    assert (result.query, result.method) == ("What is the P2M limit for UPI?", "llm")
    prompt = fake.calls[0]["text"]
    assert f"Analyst: {P2P}" in prompt and "Prism: ₹1 lakh." in prompt
    assert "Follow-up question: What about P2M?" in prompt


def test_condense_falls_back_to_heuristic():
    empty = condense("What about P2M?", [Turn(P2P, "x")], llm(ScriptedLLM(script=["   "])))
    assert (empty.query, empty.method, empty.warning) == ("What is the P2M limit for UPI?", "heuristic", None)
    failed = condense("What about P2M?", [Turn(P2P, "x")], llm(ScriptedLLM(script=[server_error(), server_error()])))
    assert failed.method == "heuristic" and "HTTP 500" in failed.warning
    no_llm = condense("What about P2M?", Conversation(turns=[Turn(P2P, "x")]), None)
    assert (no_llm.query, no_llm.method) == ("What is the P2M limit for UPI?", "heuristic")
    with pytest.raises(LLMAuthError):
        condense("What about P2M?", [Turn(P2P, "x")], llm(ScriptedLLM(script=[auth_error()])))
