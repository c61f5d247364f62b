"""Drive a Cairn server from Python: nodes, queries into DataFrames, uploads, launches, live events.

    from cairn_client import Client
    cairn = Client()                      # the cairn CLI's profile, or the local server
    p = cairn.shell("wc -l {data}", {"data": Path("measurements.csv")})
    print(p.outputs()["stdout"].read_text())

pandas is imported only by :meth:`Query.dataframe`.
"""

from .client import Client, connect
from .errors import (
    CairnError,
    Conflict,
    Forbidden,
    Internal,
    InvalidInput,
    NotFound,
    ObjectStoreFailure,
    ReadOnly,
    TooLarge,
    Unauthenticated,
    Unavailable,
)
from .functions import ExitCode, FunctionRun, PythonFunction, WorkflowFunction
from .groups import Group
from .nodes import Link, Node
from .processes import Event, Process
from .query import Query, count, field

__version__ = "0.1.0"

__all__ = [
    "Client",
    "connect",
    "Node",
    "Link",
    "Process",
    "Event",
    "Group",
    "ExitCode",
    "FunctionRun",
    "PythonFunction",
    "WorkflowFunction",
    "Query",
    "field",
    "count",
    "CairnError",
    "NotFound",
    "InvalidInput",
    "Conflict",
    "Unavailable",
    "ObjectStoreFailure",
    "Unauthenticated",
    "Forbidden",
    "ReadOnly",
    "TooLarge",
    "Internal",
]
