package dev.cairn.engine.launch;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.cairn.engine.process.CalcFunction;
import dev.cairn.engine.process.InputPort;
import dev.cairn.engine.process.OutputPort;
import dev.cairn.engine.process.Outputs;
import dev.cairn.engine.process.ProcessSpec;
import dev.cairn.storage.graph.ArrayData;
import dev.cairn.storage.graph.BoolData;
import dev.cairn.storage.graph.CalcJobNode;
import dev.cairn.storage.graph.Code;
import dev.cairn.storage.graph.Data;
import dev.cairn.storage.graph.DictData;
import dev.cairn.storage.graph.FloatData;
import dev.cairn.storage.graph.FolderData;
import dev.cairn.storage.graph.InstalledCode;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.ListData;
import dev.cairn.storage.graph.Node;
import dev.cairn.storage.graph.ProcessNode;
import dev.cairn.storage.graph.RemoteData;
import dev.cairn.storage.graph.SinglefileData;
import dev.cairn.storage.graph.StrData;
import dev.cairn.storage.graph.StructureData;

/** A calcfunction with an optional input of every kind of node, a namespace and a dynamic namespace. */
final class EveryPort {

    /** Port name to class: the data classes with an inline form, the abstract ones, the references only. */
    static final Map<String, Class<? extends Node>> PORTS = ports();

    static final InputPort<IntData> SCF = InputPort.required("params.scf", IntData.class);
    static final InputPort<StrData> MODE = InputPort.optional("params.mode", StrData.class);

    static final CalcFunction DEFINITION = new CalcFunction("test.every_port", spec(), in -> Outputs.create());

    private EveryPort() {}

    private static Map<String, Class<? extends Node>> ports() {
        Map<String, Class<? extends Node>> p = new LinkedHashMap<>();
        p.put("int", IntData.class);
        p.put("float", FloatData.class);
        p.put("str", StrData.class);
        p.put("bool", BoolData.class);
        p.put("dict", DictData.class);
        p.put("list", ListData.class);
        p.put("structure", StructureData.class);
        p.put("data", Data.class);
        p.put("node", Node.class);
        p.put("code", Code.class);
        p.put("installed", InstalledCode.class);
        p.put("remote", RemoteData.class);
        p.put("folder", FolderData.class);
        p.put("file", SinglefileData.class);
        p.put("array", ArrayData.class);
        p.put("process", ProcessNode.class);
        p.put("job", CalcJobNode.class);
        return p;
    }

    private static ProcessSpec spec() {
        ProcessSpec.Builder b = ProcessSpec.builder();
        PORTS.forEach((name, type) -> b.input(InputPort.optional(name, type)));
        return b.input(SCF)
                .input(MODE)
                .inputNamespace("extras", ns -> ns.asDynamic(IntData.class))
                .output(OutputPort.optional("result", IntData.class))
                .build();
    }

    /** A node of a class that fits the port, to be found by reference. */
    static Node fitting(Class<? extends Node> type) {
        if (type == Data.class || type == Node.class) {
            return new IntData(1);
        }
        if (type == Code.class || type == InstalledCode.class) {
            return new InstalledCode(1, "/bin/true");
        }
        if (type == ProcessNode.class || type == CalcJobNode.class) {
            return new CalcJobNode("test.bash_add");
        }
        return switch (type.getSimpleName()) {
            case "IntData" -> new IntData(1);
            case "FloatData" -> new FloatData(1.5);
            case "StrData" -> new StrData("s");
            case "BoolData" -> new BoolData(true);
            case "DictData" -> new DictData(Map.of("a", 1));
            case "ListData" -> new ListData(List.of(1));
            case "StructureData" -> Structures.cubic();
            case "RemoteData" -> new RemoteData(1, "/scratch/a");
            case "FolderData" -> new FolderData();
            case "SinglefileData" -> new SinglefileData("a.txt", new byte[] {1});
            case "ArrayData" -> new ArrayData();
            default -> throw new IllegalArgumentException("no fitting node for " + type);
        };
    }
}
