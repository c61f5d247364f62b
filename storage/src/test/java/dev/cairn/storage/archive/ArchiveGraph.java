package dev.cairn.storage.archive;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.graph.ArrayData;
import dev.cairn.storage.graph.CalcFunctionNode;
import dev.cairn.storage.graph.CalcJobNode;
import dev.cairn.storage.graph.DictData;
import dev.cairn.storage.graph.FolderData;
import dev.cairn.storage.graph.GraphFixtures;
import dev.cairn.storage.graph.GraphStore;
import dev.cairn.storage.graph.InstalledCode;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.LinkType;
import dev.cairn.storage.graph.LogEntry;
import dev.cairn.storage.graph.LogLevel;
import dev.cairn.storage.graph.LogStore;
import dev.cairn.storage.graph.Node;
import dev.cairn.storage.graph.NodeIds;
import dev.cairn.storage.graph.NpyArray;
import dev.cairn.storage.graph.ProcessNode;
import dev.cairn.storage.graph.SinglefileData;
import dev.cairn.storage.graph.StructureData;
import dev.cairn.storage.graph.WorkChainNode;
import dev.cairn.storage.graph.comments.CommentStore;
import dev.cairn.storage.graph.groups.Group;
import dev.cairn.storage.graph.groups.GroupStore;

/**
 * A finished work chain with the shapes an archive must carry: it takes an Int and a Dict, calls a
 * calcfunction that creates a file, an array and a structure, and a calculation job on a computer whose
 * code is a node, which creates a folder of retrieved files; it returns the structure. A group with
 * extras holds the work chain; the calcfunction has a comment, the work chain a log. One more Int stands
 * apart, outside any closure of the work chain.
 */
final class ArchiveGraph {

    final WorkChainNode workChain;
    final CalcFunctionNode calcFunction;
    final CalcJobNode calcJob;
    final IntData x;
    final DictData parameters;
    final InstalledCode code;
    final StructureData structure;
    final FolderData retrieved;
    final SinglefileData file;
    final IntData apart;
    final Group group;
    final long computer;
    final List<Node> nodes;

    ArchiveGraph(GraphStore graph, Database database, Path tmp, String computerLabel) throws Exception {
        computer = GraphFixtures.computer(database, computerLabel);
        code = new InstalledCode(computer, "/usr/bin/bash");
        x = new IntData(7);
        parameters = new DictData(Map.of("cutoff", 30.5, "mode", "scf"));
        workChain = finished(new WorkChainNode("cairn.test.chain"));
        workChain.addIncoming(x, LinkType.INPUT_WORK, "x");
        workChain.addIncoming(parameters, LinkType.INPUT_WORK, "parameters");

        calcFunction = finished(new CalcFunctionNode("cairn.test.make"));
        calcFunction.addIncoming(x, LinkType.INPUT_CALC, "x");
        calcFunction.addIncoming(workChain, LinkType.CALL_CALC, "CALL");
        file = new SinglefileData("out.txt", "seven\n".getBytes(StandardCharsets.UTF_8));
        file.addIncoming(calcFunction, LinkType.CREATE, "file");
        ArrayData forces = new ArrayData().set("forces", NpyArray.of(new double[] {1, 2, 3, 4, 5, 6}, 2, 3));
        forces.addIncoming(calcFunction, LinkType.CREATE, "forces");
        structure = new StructureData(
                new double[][] {{4.0, 0, 0}, {0, 4.0, 0}, {0, 0, 4.0}},
                new boolean[] {true, true, true},
                List.of(StructureData.Kind.of("Ba", 137.327), StructureData.Kind.of("O", 15.999)),
                List.of(new StructureData.Site("Ba", 0, 0, 0), new StructureData.Site("O", 2.0, 2.0, 0.1234567890123)));
        structure.addIncoming(calcFunction, LinkType.CREATE, "structure");
        structure.addIncoming(workChain, LinkType.RETURN, "structure");

        calcJob = finished(new CalcJobNode("cairn.test.job"));
        calcJob.setComputerId(computer);
        calcJob.addIncoming(parameters, LinkType.INPUT_CALC, "parameters");
        calcJob.addIncoming(code, LinkType.INPUT_CALC, "code");
        calcJob.addIncoming(workChain, LinkType.CALL_CALC, "CALL_1");
        Path folder = Files.createDirectories(tmp.resolve(computerLabel + "-retrieved/sub"));
        Files.writeString(folder.resolve("aiida.out"), "energy -42.0\n");
        Files.writeString(folder.getParent().resolve("_scheduler-stdout.txt"), "");
        retrieved = FolderData.of(folder.getParent());
        retrieved.addIncoming(calcJob, LinkType.CREATE, "retrieved");

        apart = new IntData(99);
        nodes = List.of(
                x, parameters, code, workChain, calcFunction, file, forces, structure, calcJob, retrieved, apart);
        graph.storeAll(nodes);
        graph.setExtra(structure, "tag", "relaxed");

        GroupStore groups = new GroupStore(database);
        group = groups.create(
                computerLabel + "-chains",
                GroupStore.CORE,
                "work chains",
                graph.userId(),
                Map.of("project", "archive", "round", 2));
        groups.addNodes(group.id(), NodeIds.of(workChain.id()));
        new CommentStore(database).add(calcFunction.id(), graph.userId(), "made by hand");
        new LogStore(database)
                .append(List.of(LogEntry.of(workChain.id(), LogLevel.REPORT, "cairn.test", "step 1 done")));
    }

    private static <T extends ProcessNode> T finished(T process) {
        process.setProcessState("finished");
        process.setExitStatus(0);
        process.sealBeforeStore();
        return process;
    }

    static long count(Database database, String table) throws SQLException {
        return GraphFixtures.count(database, table);
    }
}
