"""The calls both sides of the functions benchmark make: a chain of calcfunctions on floats, and workflow
functions that each call a few of them. The same arithmetic on both sides, so the results agree."""

#: name: (how many top-level calls, how many calcfunction calls inside each workflow; 0: plain calls)
WORKLOADS = {
    "calcfunctions": (200, 0),
    "workfunctions": (20, 10),
}


def step(x, k):
    """The body of each calcfunction: cheap, so that the figure is the recording's cost."""
    return x * 1.000001 + k
