package dev.cairn.storage.hash;

import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;

import dev.cairn.storage.errors.InvalidInputException;

/**
 * Everything that goes into a node's hash, and nothing else.
 *
 * <p>The caller decides what counts: {@code attributes} arrive already cleaned (the graph's
 * value cleaning) and already without the attributes that a node type leaves out of its hash
 * (a process node's updatable state, a calculation job's scheduler options, ...). The maps are
 * read when hashing and not copied: build the input just before hashing and do not change the
 * maps meanwhile. Attribute values are checked while hashing, where the walk happens anyway;
 * everything else is checked here.
 *
 * @param nodeType    the dotted node type, ending in '.', e.g. {@code data.core.int.Int.}
 * @param processType the process type (plugin entry point) of a process node; null if none
 * @param attributes  the attributes that count, keyed by name; values are null, Boolean,
 *                    String, UUID, integers (Long, Integer, Short, Byte, BigInteger), finite
 *                    floats (Double, Float, BigDecimal), List and Map with String keys
 * @param files       the file tree in {@code repository_metadata} form
 *                    ({@code {"o": {name: {"k": "<sha256 hex>"} | {"o": {...}}}}}, an empty
 *                    directory as {@code {}}); an empty map for a node without files
 * @param computerUuid the UUID of the node's computer; null if none
 * @param inputs      link label to the input node's hash (64 lowercase hex), for a process
 *                    node; empty for a data node
 */
public record HashInput(
        String nodeType,
        String processType,
        Map<String, Object> attributes,
        Map<String, Object> files,
        UUID computerUuid,
        Map<String, String> inputs) {

    private static final Pattern HASH_HEX = Pattern.compile("[0-9a-f]{64}");
    private static final Pattern NODE_TYPE = Pattern.compile("\\S+\\.");

    public HashInput {
        if (nodeType == null || !NODE_TYPE.matcher(nodeType).matches() || !CanonicalWriter.isWellFormed(nodeType)) {
            throw new InvalidInputException("nodeType must be a dotted type string ending in '.', e.g. "
                    + "'data.core.int.Int.' or 'process.calculation.calcjob.CalcJobNode.', not "
                    + (nodeType == null ? "null" : "'" + nodeType + "'"));
        }
        if (processType != null && (processType.isBlank() || !CanonicalWriter.isWellFormed(processType))) {
            throw new InvalidInputException(
                    "processType must be null or a non-blank entry point string, not '" + processType + "'");
        }
        if (attributes == null) {
            throw new InvalidInputException("attributes must not be null: pass an empty map for a node without any");
        }
        FileTree.validate(files);
        validateInputs(nodeType, inputs);
    }

    /** A data node: no process type, no inputs. */
    public static HashInput ofData(
            String nodeType, Map<String, Object> attributes, Map<String, Object> files, UUID computerUuid) {
        return new HashInput(nodeType, null, attributes, files, computerUuid, Map.of());
    }

    /** This input with {@code attributes} instead of its own. */
    public HashInput withAttributes(Map<String, Object> attributes) {
        return new HashInput(nodeType, processType, attributes, files, computerUuid, inputs);
    }

    /** This input with the file tree {@code files} instead of its own. */
    public HashInput withFiles(Map<String, Object> files) {
        return new HashInput(nodeType, processType, attributes, files, computerUuid, inputs);
    }

    /** This input with the input hashes {@code inputs} (by link label) instead of its own. */
    public HashInput withInputs(Map<String, String> inputs) {
        return new HashInput(nodeType, processType, attributes, files, computerUuid, inputs);
    }

    private static void validateInputs(String nodeType, Map<String, String> inputs) {
        if (inputs == null) {
            throw new InvalidInputException("inputs must not be null: pass an empty map for a node without any");
        }
        if (!inputs.isEmpty() && nodeType.startsWith("data.")) {
            throw new InvalidInputException("inputs: a data node (" + nodeType
                    + ") has no inputs in its hash, but got labels " + inputs.keySet());
        }
        for (Map.Entry<?, ?> input : inputs.entrySet()) {
            if (!(input.getKey() instanceof String label) || label.isEmpty() || !CanonicalWriter.isWellFormed(label)) {
                throw new InvalidInputException("inputs: a link label must be a non-empty string, not "
                        + (input.getKey() == null ? "null" : "'" + input.getKey() + "'"));
            }
            if (!(input.getValue() instanceof String hash)
                    || !HASH_HEX.matcher(hash).matches()) {
                throw new InvalidInputException("inputs: the hash of input '" + label
                        + "' must be a node hash of 64 lowercase hex characters, not "
                        + (input.getValue() == null ? "null" : "'" + input.getValue() + "'"));
            }
        }
    }
}
