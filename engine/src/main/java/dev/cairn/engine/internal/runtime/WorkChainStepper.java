package dev.cairn.engine.internal.runtime;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.cairn.engine.internal.state.WorkChainCheckpoint;
import dev.cairn.engine.process.Context;
import dev.cairn.engine.process.ExitCode;
import dev.cairn.engine.process.Outline;
import dev.cairn.engine.process.WorkChain;
import dev.cairn.engine.process.WorkChainDefinition;
import dev.cairn.storage.graph.GraphTransaction;
import dev.cairn.storage.graph.Node;

/**
 * Interprets a work chain's outline from a checkpoint's position until the chain waits for
 * children or ends. Position frames are (block id, next instruction); a loop's frame stays
 * on the loop until its condition fails, so the condition is asked again after each pass.
 * The chain's context comes back from the checkpoint too, with the children it awaited.
 */
final class WorkChainStepper {

    /** How a step ended. */
    sealed interface End permits Waiting, Ended {}

    record Waiting(List<WorkChainCheckpoint.Frame> frames) implements End {}

    record Ended(ExitCode exitCode) implements End {}

    private WorkChainStepper() {}

    static <W extends WorkChain> End advance(
            WorkChainDefinition<W> definition,
            List<WorkChainCheckpoint.Frame> from,
            StepScope scope,
            StepEffects effects)
            throws Exception {
        W chain = definition.factory().get();
        chain.attach(scope);
        Outline<W> outline = definition.outline();
        Deque<WorkChainCheckpoint.Frame> frames = new ArrayDeque<>(from);
        while (!frames.isEmpty()) {
            WorkChainCheckpoint.Frame top = frames.peekLast();
            List<Outline.Instruction<W>> block = outline.block(top.block()).instructions();
            if (top.index() >= block.size()) {
                frames.removeLast();
                continue;
            }
            switch (block.get(top.index())) {
                case Outline.Step<W> step -> {
                    advanceTop(frames);
                    step.body().run(chain);
                    if (scope.requestedExit() != null) {
                        return new Ended(scope.requestedExit());
                    }
                    if (!effects.awaited.isEmpty()) {
                        return new Waiting(new ArrayList<>(frames));
                    }
                }
                case Outline.If<W> branch -> {
                    advanceTop(frames);
                    Outline.Block<W> chosen = branch.otherwise();
                    for (int i = 0; i < branch.conditions().size(); i++) {
                        if (branch.conditions().get(i).test(chain)) {
                            chosen = branch.branches().get(i);
                            break;
                        }
                    }
                    frames.addLast(new WorkChainCheckpoint.Frame(chosen.id(), 0));
                }
                case Outline.While<W> loop -> {
                    if (loop.condition().test(chain)) {
                        frames.addLast(new WorkChainCheckpoint.Frame(loop.body().id(), 0));
                    } else {
                        advanceTop(frames);
                    }
                }
                case Outline.Return<W> ret -> {
                    return new Ended(ret.exitCode());
                }
            }
        }
        return new Ended(ExitCode.OK);
    }

    private static void advanceTop(Deque<WorkChainCheckpoint.Frame> frames) {
        WorkChainCheckpoint.Frame top = frames.removeLast();
        frames.addLast(new WorkChainCheckpoint.Frame(top.block(), top.index() + 1));
    }

    /** The context of a checkpoint with its nodes loaded and the awaited children put in, in one query. */
    static Context restoreContext(GraphTransaction g, WorkChainCheckpoint checkpoint) {
        List<Long> ids = new ArrayList<>(Context.nodeIds(checkpoint.context()));
        checkpoint.awaiting().forEach(a -> ids.add(a.child()));
        Map<Long, Node> nodes = ids.isEmpty() ? Map.of() : g.loadAll(ids);
        Map<Long, Node> found = new HashMap<>(nodes);
        Context context = Context.fromJson(checkpoint.context(), id -> {
            Node n = found.get(id);
            if (n == null) {
                throw new IllegalStateException("the checkpoint refers to node " + id + ", which no longer exists");
            }
            return n;
        });
        for (WorkChainCheckpoint.Awaited a : checkpoint.awaiting()) {
            Node child = found.get(a.child());
            if (a.append()) {
                context.append(a.key(), child);
            } else {
                context.put(a.key(), child);
            }
        }
        return context;
    }
}
