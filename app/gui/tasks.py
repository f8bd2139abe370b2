"""The one task runner: one worker thread per resource, results and progress on the GUI thread."""

from __future__ import annotations

import logging
import queue
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from PySide6.QtCore import QObject, Qt, QThread, Signal, Slot

from app.core.api import Cancelled, CancelToken

log = logging.getLogger(__name__)

SHUTDOWN_SECONDS = 2.5  # closing the window never waits longer than this for the workers
# Workers still busy at shutdown: kept alive until the process ends (never destroyed running).
_STRAGGLERS: list[QThread] = []


def stragglers() -> list[str]:
    """Names of the workers a shutdown left running (the app then exits without joining them)."""
    return [worker.objectName() for worker in _STRAGGLERS if worker.isRunning()]


def join_stragglers(timeout_s: float) -> bool:
    """Wait for the workers shutdowns left running (for a process that goes on, such as tests)."""
    deadline = time.monotonic() + timeout_s
    for worker in list(_STRAGGLERS):
        if worker.wait(max(0, int((deadline - time.monotonic()) * 1000))):
            _STRAGGLERS.remove(worker)
    return not _STRAGGLERS


class Resource(Enum):
    """Resources that allow one user at a time; each gets its own worker thread."""

    STORE = "store"  # the library: SQLite store, FAISS index, embedder
    MODEL = "model"  # the Llama object
    CHATS = "chats"  # chat list, open, delete: short SQLite reads/writes never queued behind ingestion
    LOOKUP = "lookup"  # outside the library: model files found on disk, a server's model list


class TaskContext:
    """What a running task sees: its cancel token and a thread-safe progress reporter."""

    def __init__(self, cancel: CancelToken, report: Callable[[object], None]) -> None:
        self.cancel = cancel
        self._report = report

    def progress(self, value: object) -> None:
        """Send `value` to the task's on_progress callback, delivered on the GUI thread."""
        self._report(value)


# Relays outlive their runner until their last queued signal is delivered: a queued call into a
# deleted receiver crashes PySide, so a relay is never a Qt child and is released only by itself.
_LIVE_RELAYS: set[_Relay] = set()


class _Relay(QObject):
    """Carries a task's outcome from its worker to the GUI thread (queued signals)."""

    progressed = Signal(object)
    succeeded = Signal(object)
    failed = Signal(object, str)
    was_cancelled = Signal()

    def __init__(self, handle: TaskHandle, runner: TaskRunner) -> None:
        super().__init__(None)
        _LIVE_RELAYS.add(self)
        self._handle = handle
        self._runner = runner
        queued = Qt.ConnectionType.QueuedConnection
        self.progressed.connect(self._on_progress, queued)
        self.succeeded.connect(self._on_success, queued)
        self.failed.connect(self._on_failure, queued)
        self.was_cancelled.connect(self._on_cancelled, queued)

    @Slot(object)
    def _on_progress(self, value: object) -> None:
        if self._handle.on_progress is not None and not self._handle.done and self._runner.accepting:
            self._handle.on_progress(value)

    @Slot(object)
    def _on_success(self, result: object) -> None:
        self._finish()
        if self._handle.on_success is not None and self._runner.accepting:
            self._handle.on_success(result)

    @Slot(object, str)
    def _on_failure(self, error: object, details: str) -> None:
        self._finish()
        if not self._runner.accepting:
            log.error("task %s failed during shutdown: %s", self._handle.name, details)
            return
        if self._handle.on_failure is not None and isinstance(error, BaseException):
            self._handle.on_failure(error, details)
        else:
            self._runner.report_failure(error, details)

    @Slot()
    def _on_cancelled(self) -> None:
        self._finish()
        if self._handle.on_cancelled is not None and self._runner.accepting:
            self._handle.on_cancelled()

    def _finish(self) -> None:
        self._handle.done = True
        _LIVE_RELAYS.discard(self)
        if self._runner.accepting:
            self._runner.forget(self._handle)


@dataclass(eq=False)
class TaskHandle:
    """A submitted task: cancel it, ask whether it is done. Callbacks run on the GUI thread."""

    name: str
    resource: Resource
    fn: Callable[[TaskContext], object]
    on_success: Callable[[Any], None] | None = None
    on_failure: Callable[[BaseException, str], None] | None = None
    on_progress: Callable[[Any], None] | None = None
    on_cancelled: Callable[[], None] | None = None
    token: CancelToken = field(default_factory=CancelToken)
    done: bool = False

    def cancel(self) -> None:
        self.token.cancel()


class _Job:
    """One task as the worker runs it; emits exactly one final signal on its relay."""

    def __init__(self, handle: TaskHandle, relay: _Relay) -> None:
        self.handle = handle
        self.relay = relay

    def execute(self) -> None:
        handle, relay = self.handle, self.relay
        if handle.token.cancelled:
            relay.was_cancelled.emit()
            return
        context = TaskContext(handle.token, relay.progressed.emit)
        try:
            result = handle.fn(context)
        except Cancelled:
            relay.was_cancelled.emit()
        except Exception as exc:  # a task's failure is reported on the GUI thread, never lost
            relay.failed.emit(exc, traceback.format_exc())
        else:
            relay.succeeded.emit(result)


class _Worker(QThread):
    """A thread that runs its resource's jobs one at a time, in submission order."""

    def __init__(self, resource: Resource) -> None:
        super().__init__()
        self.setObjectName(f"folio-{resource.value}")
        self.jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()

    def run(self) -> None:
        while True:
            job = self.jobs.get()
            if job is None:
                return
            job.execute()


class TaskRunner(QObject):
    """Submit work to a resource's worker; callbacks arrive on the GUI thread via queued signals.

    A task that raises `Cancelled` (or is cancelled before it starts) calls on_cancelled, never
    on_failure: cancellation is not an error. A task that returns normally calls on_success even if
    its token was set meanwhile (a stopped answer is still a result). Failures without an
    on_failure callback go to the `task_failed` signal.
    """

    task_failed = Signal(object, str)
    busy_changed = Signal(bool)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._workers: dict[Resource, _Worker] = {}
        self._active: list[TaskHandle] = []
        self.accepting = True
        self.stuck: list[str] = []  # workers the last shutdown left running

    def submit(
        self,
        resource: Resource,
        fn: Callable[[TaskContext], object],
        *,
        name: str = "",
        on_success: Callable[[Any], None] | None = None,
        on_failure: Callable[[BaseException, str], None] | None = None,
        on_progress: Callable[[Any], None] | None = None,
        on_cancelled: Callable[[], None] | None = None,
    ) -> TaskHandle:
        if not self.accepting:
            raise RuntimeError("the task runner is shut down")
        handle = TaskHandle(
            name or getattr(fn, "__name__", "task"),
            resource,
            fn,
            on_success,
            on_failure,
            on_progress,
            on_cancelled,
        )
        relay = _Relay(handle, self)
        self._active.append(handle)
        if len(self._active) == 1:
            self.busy_changed.emit(True)
        self._worker(resource).jobs.put(_Job(handle, relay))
        return handle

    def active(self, resource: Resource | None = None) -> list[TaskHandle]:
        return [h for h in self._active if resource is None or h.resource is resource]

    def forget(self, handle: TaskHandle) -> None:
        if handle in self._active:
            self._active.remove(handle)
            if not self._active:
                self.busy_changed.emit(False)

    def report_failure(self, error: object, details: str) -> None:
        self.task_failed.emit(error, details)

    def shutdown(self, timeout_s: float = SHUTDOWN_SECONDS) -> list[str]:
        """Cancel every task, let each worker finish its current step, and join the threads, for
        at most `timeout_s` in all. Returns the names of workers still busy then (a step that
        cannot be interrupted, such as loading a model): they are kept referenced, and the app
        ends the process without waiting for them (their SQLite transactions roll back)."""
        self.accepting = False
        for handle in list(self._active):
            handle.cancel()
        for worker in self._workers.values():
            worker.jobs.put(None)
        deadline = time.monotonic() + timeout_s
        stuck: list[str] = []
        for worker in self._workers.values():
            left_ms = max(0, int((deadline - time.monotonic()) * 1000))
            if not worker.wait(left_ms):
                stuck.append(worker.objectName())
                _STRAGGLERS.append(worker)
        self._workers.clear()
        self._active.clear()
        self.stuck = stuck
        return stuck

    def _worker(self, resource: Resource) -> _Worker:
        worker = self._workers.get(resource)
        if worker is None:
            worker = _Worker(resource)
            self._workers[resource] = worker
            worker.start()
        return worker
