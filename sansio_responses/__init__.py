"""sansio-responses: the OpenAI Responses (and Chat Completions) streaming protocol, without I/O.

Feed the bytes of a streaming response body to a :class:`ResponsesStream` in chunks split anywhere; get
typed events, an accumulated :class:`Response` snapshot, a clear ``outcome`` and a record of tolerated
anomalies in ``diagnostics``. Adapters under ``sansio_responses.adapters`` drive it over real HTTP.
"""

# HOW TO ADD A PUBLIC NAME: one ``Name as Name,`` line under its module's ``from .module import (``
# in the ``if TYPE_CHECKING:`` block below (a new module: a new ``from``; keep both alphabetical, as
# isort is off there). That is all: type checkers read that line (``as Name`` re-exports it under
# mypy --strict and pyright strict); at run time ``__all__``, ``dir()`` and the lazy loader read the
# same block (``_public_names``). Give the object a docstring; tests/test_import_time.py checks the
# block. ``import sansio_responses`` loads none of its modules: each loads when one of its names is
# first read (PEP 562), so a program using only ``ResponsesStream`` never loads Chat or HTTP modules.

from __future__ import annotations

# typing's TYPE_CHECKING: ``TYPE_CHECKING = False`` would be a public name to type checkers.
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the public names (see above); at run time they load lazily
    # isort: off
    from ._base import (
        DEFAULT_MAX_DIAGNOSTICS as DEFAULT_MAX_DIAGNOSTICS,
        DEFAULT_MAX_NESTING_DEPTH as DEFAULT_MAX_NESTING_DEPTH,
    )
    from ._chat.accumulate import (
        CHAT_ACCUMULATION_RULES as CHAT_ACCUMULATION_RULES,
        format_chat_accumulation_rules as format_chat_accumulation_rules,
    )
    from ._chat.models import (
        ChatCompletion as ChatCompletion,
        ChatCompletionChunk as ChatCompletionChunk,
        ChatCompletionMessage as ChatCompletionMessage,
        ChatStreamError as ChatStreamError,
        ChatToolCall as ChatToolCall,
        ChatUnknownEvent as ChatUnknownEvent,
        Choice as Choice,
        ChoiceDelta as ChoiceDelta,
        ChoiceLogprobs as ChoiceLogprobs,
        ChunkChoice as ChunkChoice,
        CompletionUsage as CompletionUsage,
        FunctionCall as FunctionCall,
        FunctionDelta as FunctionDelta,
        ToolCallDelta as ToolCallDelta,
    )
    from ._chat.stream import (
        DEFAULT_MAX_CHOICES as DEFAULT_MAX_CHOICES,
        DEFAULT_MAX_TOOL_CALLS as DEFAULT_MAX_TOOL_CALLS,
        ChatCompletionsStream as ChatCompletionsStream,
        ChatEvent as ChatEvent,
    )
    from ._diagnostics import (
        Diagnostic as Diagnostic,
    )
    from ._errors import (
        EventTooLarge as EventTooLarge,
        LocalProtocolError as LocalProtocolError,
        ProtocolError as ProtocolError,
        RemoteProtocolError as RemoteProtocolError,
        TruncatedStream as TruncatedStream,
    )
    from ._http.errors import (
        ConnectError as ConnectError,
        ConnectionDropped as ConnectionDropped,
        ConnectTimeout as ConnectTimeout,
        IdleTimeout as IdleTimeout,
        TotalTimeout as TotalTimeout,
        TransportError as TransportError,
        failure as failure,
    )
    from ._http.exchange import (
        DEFAULT_CONNECT_TIMEOUT as DEFAULT_CONNECT_TIMEOUT,
        DEFAULT_IDLE_TIMEOUT as DEFAULT_IDLE_TIMEOUT,
        MAX_TIMEOUT as MAX_TIMEOUT,
        Exchange as Exchange,
        check_timeout as check_timeout,
        new_stream as new_stream,
        send_headers as send_headers,
    )
    from ._http.policies import (
        DEFAULT_MAX_RESUME_ATTEMPTS as DEFAULT_MAX_RESUME_ATTEMPTS,
        DEFAULT_MAX_RETRIES as DEFAULT_MAX_RETRIES,
        ResumePolicy as ResumePolicy,
        RetryPolicy as RetryPolicy,
    )
    from ._http.requests import (
        DEFAULT_BASE_URL as DEFAULT_BASE_URL,
        ERROR_BODY_LIMIT as ERROR_BODY_LIMIT,
        MAX_RETRY_AFTER as MAX_RETRY_AFTER,
        SENSITIVE_HEADERS as SENSITIVE_HEADERS,
        APIErrorObject as APIErrorObject,
        APIStatusError as APIStatusError,
        AuthenticationError as AuthenticationError,
        BadRequestError as BadRequestError,
        ConflictError as ConflictError,
        InternalServerError as InternalServerError,
        NotFoundError as NotFoundError,
        PermissionDeniedError as PermissionDeniedError,
        RateLimitError as RateLimitError,
        Request as Request,
        UnexpectedContentType as UnexpectedContentType,
        UnprocessableEntityError as UnprocessableEntityError,
        chat_request as chat_request,
        check_content_type as check_content_type,
        needs_error_body as needs_error_body,
        response_error as response_error,
        responses_request as responses_request,
        resume_request as resume_request,
    )
    from ._json.parsing import (
        FunctionTool as FunctionTool,
        OutputParseError as OutputParseError,
        function_tool_parsers as function_tool_parsers,
        json_schema as json_schema,
        make_parser as make_parser,
        parse_json_text as parse_json_text,
    )
    from ._json.partial import (
        PartialJSON as PartialJSON,
        PartialJSONError as PartialJSONError,
    )
    from ._responses.accumulate import (
        ACCUMULATION_RULES as ACCUMULATION_RULES,
        DEFAULT_MAX_OUTPUT_ITEMS as DEFAULT_MAX_OUTPUT_ITEMS,
    )
    from ._responses.events import (
        EVENT_TYPES as EVENT_TYPES,
        ResponseAudioDeltaEvent as ResponseAudioDeltaEvent,
        ResponseAudioDoneEvent as ResponseAudioDoneEvent,
        ResponseAudioTranscriptDeltaEvent as ResponseAudioTranscriptDeltaEvent,
        ResponseAudioTranscriptDoneEvent as ResponseAudioTranscriptDoneEvent,
        ResponseCodeInterpreterCallCodeDeltaEvent as ResponseCodeInterpreterCallCodeDeltaEvent,
        ResponseCodeInterpreterCallCodeDoneEvent as ResponseCodeInterpreterCallCodeDoneEvent,
        ResponseCodeInterpreterCallCompletedEvent as ResponseCodeInterpreterCallCompletedEvent,
        ResponseCodeInterpreterCallInProgressEvent as ResponseCodeInterpreterCallInProgressEvent,
        ResponseCodeInterpreterCallInterpretingEvent as ResponseCodeInterpreterCallInterpretingEvent,
        ResponseCompactionCompactingEvent as ResponseCompactionCompactingEvent,
        ResponseCompletedEvent as ResponseCompletedEvent,
        ResponseContentPartAddedEvent as ResponseContentPartAddedEvent,
        ResponseContentPartDoneEvent as ResponseContentPartDoneEvent,
        ResponseCreatedEvent as ResponseCreatedEvent,
        ResponseCustomToolCallInputDeltaEvent as ResponseCustomToolCallInputDeltaEvent,
        ResponseCustomToolCallInputDoneEvent as ResponseCustomToolCallInputDoneEvent,
        ResponseErrorEvent as ResponseErrorEvent,
        ResponseFailedEvent as ResponseFailedEvent,
        ResponseFileSearchCallCompletedEvent as ResponseFileSearchCallCompletedEvent,
        ResponseFileSearchCallInProgressEvent as ResponseFileSearchCallInProgressEvent,
        ResponseFileSearchCallSearchingEvent as ResponseFileSearchCallSearchingEvent,
        ResponseFunctionCallArgumentsDeltaEvent as ResponseFunctionCallArgumentsDeltaEvent,
        ResponseFunctionCallArgumentsDoneEvent as ResponseFunctionCallArgumentsDoneEvent,
        ResponseImageGenCallCompletedEvent as ResponseImageGenCallCompletedEvent,
        ResponseImageGenCallGeneratingEvent as ResponseImageGenCallGeneratingEvent,
        ResponseImageGenCallInProgressEvent as ResponseImageGenCallInProgressEvent,
        ResponseImageGenCallPartialImageEvent as ResponseImageGenCallPartialImageEvent,
        ResponseIncompleteEvent as ResponseIncompleteEvent,
        ResponseInProgressEvent as ResponseInProgressEvent,
        ResponseMcpCallArgumentsDeltaEvent as ResponseMcpCallArgumentsDeltaEvent,
        ResponseMcpCallArgumentsDoneEvent as ResponseMcpCallArgumentsDoneEvent,
        ResponseMcpCallCompletedEvent as ResponseMcpCallCompletedEvent,
        ResponseMcpCallFailedEvent as ResponseMcpCallFailedEvent,
        ResponseMcpCallInProgressEvent as ResponseMcpCallInProgressEvent,
        ResponseMcpListToolsCompletedEvent as ResponseMcpListToolsCompletedEvent,
        ResponseMcpListToolsFailedEvent as ResponseMcpListToolsFailedEvent,
        ResponseMcpListToolsInProgressEvent as ResponseMcpListToolsInProgressEvent,
        ResponseOutputItemAddedEvent as ResponseOutputItemAddedEvent,
        ResponseOutputItemDoneEvent as ResponseOutputItemDoneEvent,
        ResponseOutputTextAnnotationAddedEvent as ResponseOutputTextAnnotationAddedEvent,
        ResponseQueuedEvent as ResponseQueuedEvent,
        ResponseReasoningSummaryPartAddedEvent as ResponseReasoningSummaryPartAddedEvent,
        ResponseReasoningSummaryPartDoneEvent as ResponseReasoningSummaryPartDoneEvent,
        ResponseReasoningSummaryTextDeltaEvent as ResponseReasoningSummaryTextDeltaEvent,
        ResponseReasoningSummaryTextDoneEvent as ResponseReasoningSummaryTextDoneEvent,
        ResponseReasoningTextDeltaEvent as ResponseReasoningTextDeltaEvent,
        ResponseReasoningTextDoneEvent as ResponseReasoningTextDoneEvent,
        ResponseRefusalDeltaEvent as ResponseRefusalDeltaEvent,
        ResponseRefusalDoneEvent as ResponseRefusalDoneEvent,
        ResponseShellCallCommandAddedEvent as ResponseShellCallCommandAddedEvent,
        ResponseShellCallCommandDeltaEvent as ResponseShellCallCommandDeltaEvent,
        ResponseShellCallCommandDoneEvent as ResponseShellCallCommandDoneEvent,
        ResponseShellCallOutputContentDeltaEvent as ResponseShellCallOutputContentDeltaEvent,
        ResponseShellCallOutputContentDoneEvent as ResponseShellCallOutputContentDoneEvent,
        ResponseStreamEvent as ResponseStreamEvent,
        ResponseTextDeltaEvent as ResponseTextDeltaEvent,
        ResponseTextDoneEvent as ResponseTextDoneEvent,
        ResponseWebSearchCallCompletedEvent as ResponseWebSearchCallCompletedEvent,
        ResponseWebSearchCallInProgressEvent as ResponseWebSearchCallInProgressEvent,
        ResponseWebSearchCallSearchingEvent as ResponseWebSearchCallSearchingEvent,
        UnknownEvent as UnknownEvent,
        parse_event as parse_event,
    )
    from ._responses.models import (
        OUTPUT_ITEM_TYPES as OUTPUT_ITEM_TYPES,
        AdditionalTools as AdditionalTools,
        Annotation as Annotation,
        CompletionTokensDetails as CompletionTokensDetails,
        ContainerFileCitation as ContainerFileCitation,
        ContentPart as ContentPart,
        FileCitation as FileCitation,
        FilePath as FilePath,
        ImageGenerationCall as ImageGenerationCall,
        IncompleteDetails as IncompleteDetails,
        InputTokensDetails as InputTokensDetails,
        LocalShellCall as LocalShellCall,
        LocalShellCallOutput as LocalShellCallOutput,
        McpApprovalRequest as McpApprovalRequest,
        McpApprovalResponse as McpApprovalResponse,
        McpCall as McpCall,
        McpListTools as McpListTools,
        OutputItem as OutputItem,
        OutputTokensDetails as OutputTokensDetails,
        Program as Program,
        ProgramOutput as ProgramOutput,
        PromptTokensDetails as PromptTokensDetails,
        ReasoningText as ReasoningText,
        Response as Response,
        ResponseApplyPatchToolCall as ResponseApplyPatchToolCall,
        ResponseApplyPatchToolCallOutput as ResponseApplyPatchToolCallOutput,
        ResponseCodeInterpreterToolCall as ResponseCodeInterpreterToolCall,
        ResponseCompactionItem as ResponseCompactionItem,
        ResponseComputerToolCall as ResponseComputerToolCall,
        ResponseComputerToolCallOutputItem as ResponseComputerToolCallOutputItem,
        ResponseCustomToolCall as ResponseCustomToolCall,
        ResponseCustomToolCallOutputItem as ResponseCustomToolCallOutputItem,
        ResponseError as ResponseError,
        ResponseFileSearchToolCall as ResponseFileSearchToolCall,
        ResponseFunctionShellToolCall as ResponseFunctionShellToolCall,
        ResponseFunctionShellToolCallOutput as ResponseFunctionShellToolCallOutput,
        ResponseFunctionToolCall as ResponseFunctionToolCall,
        ResponseFunctionToolCallOutputItem as ResponseFunctionToolCallOutputItem,
        ResponseFunctionWebSearch as ResponseFunctionWebSearch,
        ResponseOutputMessage as ResponseOutputMessage,
        ResponseOutputRefusal as ResponseOutputRefusal,
        ResponseOutputText as ResponseOutputText,
        ResponseReasoningItem as ResponseReasoningItem,
        ResponseToolSearchCall as ResponseToolSearchCall,
        ResponseToolSearchOutputItem as ResponseToolSearchOutputItem,
        ResponseUsage as ResponseUsage,
        SummaryText as SummaryText,
        UnknownAnnotation as UnknownAnnotation,
        UnknownContentPart as UnknownContentPart,
        UnknownOutputItem as UnknownOutputItem,
        URLCitation as URLCitation,
        annotation_from_dict as annotation_from_dict,
        content_part_from_dict as content_part_from_dict,
        output_item_from_dict as output_item_from_dict,
    )
    from ._responses.stream import (
        DEFAULT_SEQUENCE_WINDOW as DEFAULT_SEQUENCE_WINDOW,
        OUTCOMES as OUTCOMES,
        STATE_TABLE as STATE_TABLE,
        ResponsesStream as ResponsesStream,
        format_accumulation_rules as format_accumulation_rules,
        format_state_table as format_state_table,
        print_state_table as print_state_table,
    )
    from ._sse import (
        DEFAULT_MAX_EVENT_SIZE as DEFAULT_MAX_EVENT_SIZE,
        ServerSentEvent as ServerSentEvent,
        SSEDecoder as SSEDecoder,
    )
    from ._ws.connection import (
        CONNECTION_RULES as CONNECTION_RULES,
        HTTP_ONLY_FIELDS as HTTP_ONLY_FIELDS,
        ResponsesConnection as ResponsesConnection,
        format_connection_rules as format_connection_rules,
        print_connection_rules as print_connection_rules,
    )
    from ._ws.events import (
        ResponsesServerEvent as ResponsesServerEvent,
        ResponseSteerAcceptedEvent as ResponseSteerAcceptedEvent,
        ResponseSteerFailedEvent as ResponseSteerFailedEvent,
        ResponseSteerPendingEvent as ResponseSteerPendingEvent,
        ResponseWebSocketErrorEvent as ResponseWebSocketErrorEvent,
        parse_server_event as parse_server_event,
    )
    from ._ws.reconnect import (
        DEFAULT_MAX_QUEUE_BYTES as DEFAULT_MAX_QUEUE_BYTES,
        DEFAULT_MAX_RECONNECTS as DEFAULT_MAX_RECONNECTS,
        RECOVERABLE_CLOSE_CODES as RECOVERABLE_CLOSE_CODES,
        QueueFull as QueueFull,
        ReconnectPolicy as ReconnectPolicy,
        SendQueue as SendQueue,
    )

__version__ = "0.1.0"

# Defined for run time only: a module-level __getattr__ seen by a type checker would make every
# misspelt ``sr.Name`` type-check as Any instead of an error.
if not TYPE_CHECKING:
    _MODULE_OF: dict[str, str] | None = None  # public name -> private module, read on first use

    def _public_names() -> dict[str, str]:
        """Public name -> its private module, read once from this file's TYPE_CHECKING block: a
        line scan of the formatted imports (``ast`` costs more to import than all of this)."""
        global _MODULE_OF
        if _MODULE_OF is None:
            # The file itself, not __loader__.get_source: pytest loads this package through its
            # assertion rewriter (the test kit is a pytest plugin), a loader without get_source.
            with open(__file__, encoding="utf-8") as file:
                source = file.read()
            table: dict[str, str] = {}
            module, inside = "", False
            for line in source.splitlines():
                if line.startswith("if TYPE_CHECKING:"):
                    inside = True
                elif inside and line[:1] not in ("", " "):
                    break  # the block ends at the first line back at column 0
                elif inside:
                    code = line.partition("#")[0].strip()
                    if code.startswith("from ."):
                        module, _, code = code[len("from .") :].partition(" import ")
                    for item in filter(None, map(str.strip, code.strip("()").split(","))):
                        table[item.rpartition(" as ")[2]] = module  # "A as A" (or a bare "A")
            _MODULE_OF = table
        return _MODULE_OF

    def __getattr__(name: str) -> object:
        """Load a public name from its module on first use (PEP 562), then keep it here."""
        if name == "__all__":
            value: object = [*_public_names(), "__version__"]
        elif name in _public_names():
            import importlib

            value = getattr(importlib.import_module("." + _public_names()[name], __name__), name)
        else:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        globals()[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*globals(), *_public_names(), "__all__"})
