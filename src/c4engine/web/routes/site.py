"""What is not the engine's API: the page, the API docs (Swagger UI served from this server, so they
work offline), their static files, and the liveness check."""

from __future__ import annotations

from importlib import resources
from typing import Any

from fastapi import APIRouter, FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles
from swagger_ui_bundle import swagger_ui_path

from c4engine import __version__
from c4engine.web.caps import ServerCaps
from c4engine.web.models import HealthOut
from c4engine.web.pool import Lane

__all__ = ["STATIC", "health_routes", "mount_static", "page_routes"]

STATIC = resources.files("c4engine.web") / "static"


def health_routes(caps: ServerCaps, analyses: Lane, moves: Lane) -> APIRouter:
    """``GET /healthz``: liveness and the lanes' load."""
    router = APIRouter()

    @router.get("/healthz", response_model=HealthOut, tags=["service"])
    async def healthz() -> dict[str, Any]:
        """Liveness: answered by the event loop, never waits for the engine."""
        return {
            "status": "ok",
            "version": __version__,
            "workers": analyses.size,
            "move_workers": moves.size,
            "pending": analyses.pending,
            "pending_moves": moves.pending,
            "max_pending": caps.max_pending,
        }

    return router


def page_routes() -> APIRouter:
    """``GET /`` (the page) and ``GET /docs`` (the API docs), outside the OpenAPI schema."""
    router = APIRouter()

    @router.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(str(STATIC / "index.html"), headers={"Cache-Control": "no-cache"})

    @router.get("/docs", include_in_schema=False)
    async def docs() -> FileResponse:
        return FileResponse(str(STATIC / "docs.html"), headers={"Cache-Control": "no-cache"})

    return router


def mount_static(app: FastAPI) -> None:
    """Serve the page's files under ``/static`` and Swagger UI's under ``/docs-assets``."""
    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
    app.mount("/docs-assets", StaticFiles(directory=str(swagger_ui_path)), name="docs-assets")
