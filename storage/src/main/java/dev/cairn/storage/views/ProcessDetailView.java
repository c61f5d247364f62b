package dev.cairn.storage.views;

import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * One process with everything around it: its attributes, inputs and outputs, the processes it called,
 * and where it ran.
 *
 * @param process       the process, as lists show it
 * @param attributes    its attributes
 * @param computerLabel the label of the computer a calculation job ran on, or null
 * @param cachedFrom    the node its outputs were copied from, when it came from the cache, or null
 * @param inputs        the nodes linked into it (INPUT_CALC, INPUT_WORK), by link label, in label order
 * @param outputs       the nodes it made or returned (CREATE, RETURN), by link label, in label order
 * @param called        the processes it called, oldest first
 */
public record ProcessDetailView(
        ProcessView process,
        String description,
        Map<String, Object> attributes,
        String computerLabel,
        UUID cachedFrom,
        Map<String, Linked> inputs,
        Map<String, Linked> outputs,
        List<ProcessView> called) {

    /**
     * A node linked to the process.
     *
     * @param value the value of a plain Int, Float, Str or Bool node; null for others
     */
    public record Linked(UUID uuid, long id, String nodeType, Object value) {}
}
