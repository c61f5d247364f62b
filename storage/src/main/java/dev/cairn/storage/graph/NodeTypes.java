package dev.cairn.storage.graph;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The registry of node types: the core ones, plus the data types plugins provide through
 * {@link DataTypeProvider}. Storing a node whose type nobody registered is an error; a stored data
 * node of such a type (imported from an archive) reads as {@link GenericData}, a stored process node
 * of such a type is an error.
 */
public final class NodeTypes {

    private static final Pattern SYNTAX = Pattern.compile("(data|process)\\.([A-Za-z0-9_]+\\.)+");
    private static final Map<String, Function<NodeRecord, ? extends Node>> READERS = load();

    private NodeTypes() {}

    private static Map<String, Function<NodeRecord, ? extends Node>> load() {
        Map<String, Function<NodeRecord, ? extends Node>> readers = new LinkedHashMap<>();
        readers.put(IntData.TYPE, IntData::new);
        readers.put(FloatData.TYPE, FloatData::new);
        readers.put(StrData.TYPE, StrData::new);
        readers.put(BoolData.TYPE, BoolData::new);
        readers.put(DictData.TYPE, DictData::new);
        readers.put(ListData.TYPE, ListData::new);
        readers.put(ArrayData.TYPE, ArrayData::new);
        readers.put(StructureData.TYPE, StructureData::new);
        readers.put(SinglefileData.TYPE, SinglefileData::new);
        readers.put(FolderData.TYPE, FolderData::new);
        readers.put(RemoteData.TYPE, RemoteData::new);
        readers.put(InstalledCode.TYPE, InstalledCode::new);
        readers.put(PortableCode.TYPE, PortableCode::new);
        readers.put(CalcFunctionNode.TYPE, CalcFunctionNode::new);
        readers.put(CalcJobNode.TYPE, CalcJobNode::new);
        readers.put(WorkFunctionNode.TYPE, WorkFunctionNode::new);
        readers.put(WorkChainNode.TYPE, WorkChainNode::new);
        for (DataTypeProvider provider : ServiceLoader.load(DataTypeProvider.class)) {
            for (DataType<?> type : provider.dataTypes()) {
                if (readers.containsKey(type.nodeType())) {
                    throw new IllegalStateException("data type " + type.nodeType() + " of "
                            + provider.getClass().getName() + " is registered already");
                }
                readers.put(type.nodeType(), type.reader());
            }
        }
        return Map.copyOf(readers);
    }

    /** True when some class reads nodes of this type. */
    public static boolean isKnown(String nodeType) {
        return READERS.containsKey(nodeType);
    }

    /** Every registered type, sorted. */
    public static TreeSet<String> known() {
        return new TreeSet<>(READERS.keySet());
    }

    /** The typed node for a stored row. */
    public static Node read(NodeRecord row) {
        Function<NodeRecord, ? extends Node> reader = READERS.get(row.nodeType());
        if (reader == null && row.nodeType().startsWith("data.")) {
            return new GenericData(row);
        }
        if (reader == null) {
            throw unknown(row.nodeType(), "node " + row.id());
        }
        return reader.apply(row);
    }

    static UnknownNodeTypeException unknown(String nodeType, String who) {
        return new UnknownNodeTypeException(
                who + " has node type '" + nodeType + "', which no installed plugin provides; known types: " + known());
    }

    static String checkSyntax(String nodeType) {
        if (nodeType == null || !SYNTAX.matcher(nodeType).matches()) {
            throw new UnknownNodeTypeException(
                    "node type '" + nodeType
                            + "' is malformed: it is dotted, starts with 'data.' or 'process.' and ends with '.', e.g. data.core.int.Int.");
        }
        return nodeType;
    }
}
