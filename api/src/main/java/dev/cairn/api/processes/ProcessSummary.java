package dev.cairn.api.processes;

import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Collectors;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.media.Schema;

import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.graph.CalcFunctionNode;
import dev.cairn.storage.graph.CalcJobNode;
import dev.cairn.storage.graph.ProcessNode;
import dev.cairn.storage.graph.WorkChainNode;
import dev.cairn.storage.graph.WorkFunctionNode;

/** A process as lists show it. */
@Schema(description = "A process: what ran, its state and how it ended")
public record ProcessSummary(
        @Schema(description = "the process node's uuid") UUID uuid,

        @Schema(
                description = "its node's primary key in this installation (short to type; the uuid is the id"
                        + " that holds everywhere)",
                example = "42")
        long pk,

        @JsonProperty("entry_point") @Schema(description = "what ran", example = "arithmetic.add_multiply")
        String entryPoint,

        @Schema(
                description = "the kind of process",
                allowableValues = {"calcfunction", "calcjob", "workchain", "workfunction"},
                example = "workchain")
        String kind,

        @Schema(description = "the node's label (empty unless someone set one)", example = "")
        String label,

        @Schema(
                description = "its state",
                allowableValues = {"created", "waiting", "finished", "excepted", "killed"},
                example = "finished")
        String state,

        @Schema(description = "paused: it keeps its state and does not go on until played")
        boolean paused,

        @JsonProperty("exit_status")
        @Schema(description = "how it ended (0 is success); null until it finished", nullable = true)
        Integer exitStatus,

        @JsonProperty("process_status")
        @Schema(
                description = "what it is doing or waiting for",
                nullable = true,
                example = "Waiting for child processes")
        String processStatus,

        @Schema(description = "when it was launched") OffsetDateTime ctime,
        @Schema(description = "when its node last changed") OffsetDateTime mtime,

        @Schema(description = "the user it runs for (email)", example = "engine@localhost")
        String user,

        @Schema(description = "the process that called it; null for a top-level process", nullable = true)
        UUID caller) {

    /** A process just launched by the calling user ({@code user}, an email), as lists show it. */
    public static ProcessSummary launched(ProcessNode node, String user) {
        return launched(node, user, null);
    }

    /** A process just launched by {@code user} and called by {@code caller} (null: by none). */
    public static ProcessSummary launched(ProcessNode node, String user, ProcessNode caller) {
        return new ProcessSummary(
                node.uuid(),
                node.id(),
                node.processType(),
                kind(node.nodeType()),
                node.label(),
                node.processState(),
                node.isPaused(),
                node.exitStatus(),
                node.processStatus(),
                node.ctime(),
                node.mtime(),
                user,
                caller == null ? null : caller.uuid());
    }

    /** The node type of each kind of process, by the kind's name. */
    static final Map<String, String> KINDS = Map.of(
            "calcfunction", CalcFunctionNode.TYPE,
            "calcjob", CalcJobNode.TYPE,
            "workchain", WorkChainNode.TYPE,
            "workfunction", WorkFunctionNode.TYPE);

    private static final Map<String, String> KIND_OF_TYPE =
            KINDS.entrySet().stream().collect(Collectors.toUnmodifiableMap(Map.Entry::getValue, Map.Entry::getKey));

    /** The kind of process a node type is. */
    static String kind(String nodeType) {
        return KIND_OF_TYPE.getOrDefault(nodeType, nodeType);
    }

    /** The kinds of process, by name, in order. */
    public static List<String> kinds() {
        return List.copyOf(new TreeSet<>(KINDS.keySet()));
    }

    /** The node types of the kinds given, checked: a kind that is none is refused, naming the kinds. */
    static List<String> nodeTypes(List<String> kinds) {
        List<String> types = new ArrayList<>(kinds.size());
        for (String kind : kinds) {
            String type = KINDS.get(kind);
            if (type == null) {
                throw new InvalidInputException(
                        "kind '" + kind + "' is not a kind of process; the kinds are " + kinds());
            }
            types.add(type);
        }
        return types;
    }
}
