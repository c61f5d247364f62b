package dev.cairn.storage.graph.computers;

import java.util.Map;

import dev.cairn.storage.errors.InvalidInputException;

/**
 * What is needed to set up a computer. The transport and scheduler types name plugins, e.g.
 * {@code core.ssh} and {@code core.slurm}; this layer does not know which are installed.
 */
public record ComputerSpec(
        String label,
        String hostname,
        String description,
        String transportType,
        String schedulerType,
        Map<String, Object> metadata) {

    public ComputerSpec {
        requireText("label", label);
        requireText("hostname", hostname);
        requireText("transport type", transportType);
        requireText("scheduler type", schedulerType);
        description = description == null ? "" : description;
        if (metadata != null) {
            metadata.forEach((key, value) -> {
                if (value == null) {
                    throw new InvalidInputException("computer setting '" + key + "' is null: leave it out instead");
                }
            });
        }
        metadata = metadata == null ? Map.of() : Map.copyOf(metadata);
    }

    /** A spec with an empty description and no metadata. */
    public static ComputerSpec of(String label, String hostname, String transportType, String schedulerType) {
        return new ComputerSpec(label, hostname, "", transportType, schedulerType, Map.of());
    }

    static void requireText(String what, String value) {
        if (value == null || value.isBlank()) {
            throw new InvalidInputException("computer " + what + " must not be empty");
        }
    }
}
