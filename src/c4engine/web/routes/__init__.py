"""The app's routes, one :class:`~fastapi.APIRouter` per concern, each made by a factory from the
server's caps and the lanes it queues work in; :func:`c4engine.web.app.create_app` assembles them."""
