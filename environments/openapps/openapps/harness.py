"""The default harness: one chat-completions request per turn, made in-process.

verifiers' built-in ``null`` harness runs a chat program in a fresh Python process for every
segment of an exchange (and prepares its environment with uv first); an OpenApps episode is
one segment per step, so this harness makes the same request from the eval's own process
instead: the conversation so far (the system prompt, each observation and each reply) sent to
the rollout's interception endpoint, which records it on the trace and relays it to the model
(verifiers' contract for a harness: every model call through the endpoint). It gives the model
no tools: its action is in its text. ``--env.agent.harness.id null`` (or any other harness that
can continue an exchange) replaces it.
"""

from __future__ import annotations

import httpx
import verifiers.v1 as vf
from verifiers.v1.dialects.chat import message_to_wire


class OpenAppsHarnessConfig(vf.HarnessConfig):
    timeout: float = 600.0
    """Seconds one model request may take."""


def wire_messages(system: str | None, prompt: str | vf.Messages | None) -> list[dict]:
    messages = [{"role": "system", "content": system}] if system else []
    if isinstance(prompt, str):
        messages.append({"role": "user", "content": prompt})
    elif prompt:
        messages += [message_to_wire(m) for m in prompt]
    return messages


class OpenAppsHarness(vf.Harness[OpenAppsHarnessConfig]):
    APPENDS_SYSTEM_PROMPT = True
    SUPPORTS_RESUME = True  # each turn is a request on the whole conversation
    EXECUTES_CODE = False
    NEEDS_CONTAINER = False

    async def launch(
        self,
        ctx: vf.ModelContext,
        trace: vf.Trace,
        runtime: vf.Runtime,
        endpoint: str,
        secret: str,
        mcp_urls: dict[str, str],
        data: vf.TaskData,
    ) -> vf.ProgramResult:
        system, prompt = self.resolve_prompt(data)
        body = {"model": ctx.model, "messages": wire_messages(system, prompt)}
        headers = {"Authorization": f"Bearer {secret}"}
        try:
            async with httpx.AsyncClient(timeout=httpx.Timeout(self.config.timeout, connect=10.0)) as client:
                response = await client.post(f"{endpoint.rstrip('/')}/chat/completions", json=body, headers=headers)
        except httpx.HTTPError as e:
            return vf.ProgramResult(1, "", f"the model request failed: {type(e).__name__}: {e}")
        if response.status_code != 200:
            return vf.ProgramResult(
                1, "", f"the model request failed: HTTP {response.status_code}: {response.text[:500]}"
            )
        choices = response.json().get("choices") or [{}]
        return vf.ProgramResult(0, (choices[0].get("message") or {}).get("content") or "", "")
