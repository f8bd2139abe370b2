"""The task runner: callbacks on the GUI thread, cancellation is not an error, one job at a time."""

from __future__ import annotations

import threading

from PySide6.QtCore import QThread
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.core.errors import Cancelled
from app.gui.tasks import Resource, TaskContext, TaskRunner


def test_success_and_progress_arrive_on_the_gui_thread(qtbot: QtBot) -> None:
    runner = TaskRunner()
    gui_thread = QApplication.instance().thread()  # type: ignore[union-attr]
    seen: list[tuple[str, object, bool]] = []
    worker_threads: list[str] = []

    def work(ctx: TaskContext) -> int:
        worker_threads.append(threading.current_thread().name)
        for step in range(3):
            ctx.progress(step)
        return 42

    with qtbot.waitSignal(runner.busy_changed, timeout=5000, check_params_cb=lambda busy: not busy):
        runner.submit(
            Resource.STORE,
            work,
            on_progress=lambda v: seen.append(("progress", v, QThread.currentThread() is gui_thread)),
            on_success=lambda v: seen.append(("success", v, QThread.currentThread() is gui_thread)),
        )
    assert seen == [
        ("progress", 0, True),
        ("progress", 1, True),
        ("progress", 2, True),
        ("success", 42, True),
    ]
    assert worker_threads and worker_threads[0] != threading.main_thread().name
    runner.shutdown()


def test_cancellation_is_not_a_failure(qtbot: QtBot) -> None:
    runner = TaskRunner()
    outcomes: list[str] = []
    gate = threading.Event()

    def blocked(ctx: TaskContext) -> None:
        gate.wait(5)
        ctx.cancel.raise_if_cancelled()

    first = runner.submit(
        Resource.MODEL,
        blocked,
        on_success=lambda _r: outcomes.append("success"),
        on_failure=lambda e, d: outcomes.append("failure"),
        on_cancelled=lambda: outcomes.append("cancelled-running"),
    )
    queued = runner.submit(
        Resource.MODEL,
        lambda ctx: outcomes.append("ran"),
        on_cancelled=lambda: outcomes.append("cancelled-queued"),
    )
    with (
        qtbot.assertNotEmitted(runner.task_failed),
        qtbot.waitSignal(runner.busy_changed, timeout=5000, check_params_cb=lambda busy: not busy),
    ):
        first.cancel()
        queued.cancel()
        gate.set()
    assert outcomes == ["cancelled-running", "cancelled-queued"]
    runner.shutdown()


def test_failure_without_handler_goes_to_task_failed(qtbot: QtBot) -> None:
    runner = TaskRunner()

    def broken(_ctx: TaskContext) -> None:
        raise ValueError("boom")

    failures: list[tuple[object, str]] = []
    runner.task_failed.connect(lambda error, details: failures.append((error, details)))
    with qtbot.waitSignal(runner.task_failed, timeout=5000):
        runner.submit(Resource.STORE, broken)
    error, details = failures[0]
    assert isinstance(error, ValueError) and "boom" in details and "Traceback" in details
    runner.shutdown()


def test_one_resource_runs_jobs_in_order_and_shutdown_cancels(qtbot: QtBot) -> None:
    runner = TaskRunner()
    order: list[int] = []
    running = threading.Event()

    def slow(ctx: TaskContext) -> None:
        running.set()
        while not ctx.cancel.cancelled:
            threading.Event().wait(0.005)
        raise Cancelled()

    with qtbot.waitSignal(runner.busy_changed, timeout=5000, check_params_cb=lambda busy: not busy):
        for n in range(3):
            runner.submit(Resource.STORE, lambda _ctx, n=n: order.append(n))
    assert order == [0, 1, 2]
    handle = runner.submit(Resource.STORE, slow)
    running.wait(5)
    runner.shutdown()  # cancels the running job and joins the thread: must return
    assert handle.token.cancelled and not runner.accepting and runner.active() == []
