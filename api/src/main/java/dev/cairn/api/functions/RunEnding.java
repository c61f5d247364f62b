package dev.cairn.api.functions;

import tools.jackson.databind.JsonNode;

/** How a run a client made ended, as its request says: what a recorded run and an ended workflow share. */
interface RunEnding {

    /** What it returned, by output name; null or empty with a failure or an exception. */
    JsonNode outputs();

    /** 0, or a failure it reported itself; null for 0 (or with an exception). */
    Integer exitStatus();

    /** What the failure was, or null. */
    String exitMessage();

    /** What it raised, or null when it returned. */
    String exception();
}
