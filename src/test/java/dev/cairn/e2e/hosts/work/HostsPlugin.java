package dev.cairn.e2e.hosts.work;

import static dev.cairn.engine.process.Outline.step;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;

import dev.cairn.engine.plugin.CairnPlugin;
import dev.cairn.engine.process.CalcFunction;
import dev.cairn.engine.process.InputPort;
import dev.cairn.engine.process.Inputs;
import dev.cairn.engine.process.Outline;
import dev.cairn.engine.process.OutputPort;
import dev.cairn.engine.process.ProcessDefinition;
import dev.cairn.engine.process.ProcessSpec;
import dev.cairn.engine.process.WorkChain;
import dev.cairn.engine.process.WorkChainDefinition;
import dev.cairn.storage.graph.CalcFunctionNode;
import dev.cairn.storage.graph.IntData;

/**
 * The processes the many-hosts tests run besides the examples': a calculation that holds its
 * worker's slot while it waits ({@code hosts.nap}, as a step does that waits on a slow scheduler
 * command or file system), one that keeps a core busy ({@code hosts.spin}), and a work chain of
 * naps ({@code hosts.relay}). Workers load
 * it from a plugin jar the tests write ({@link PluginJar}); it uses nothing but the plugin API.
 */
public final class HostsPlugin implements CairnPlugin {

    public static final InputPort<IntData> MS = InputPort.required("ms", IntData.class);
    public static final InputPort<IntData> N = InputPort.required("n", IntData.class);
    public static final InputPort<IntData> X = InputPort.required("x", IntData.class);
    public static final InputPort<IntData> Y = InputPort.required("y", IntData.class);
    public static final OutputPort<IntData> RESULT = OutputPort.required("result", IntData.class);

    /** Sleeps {@code ms} milliseconds in its step, then returns {@code ms}. */
    public static final CalcFunction NAP = CalcFunction.of("hosts.nap", MS, RESULT, ms -> {
        try {
            Thread.sleep(ms.value());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while napping", e);
        }
        return new IntData(ms.value());
    });

    public static final InputPort<IntData> ROUNDS = InputPort.required("rounds", IntData.class);

    /**
     * Work for the CPU: {@code rounds} SHA-256 digests of a 4 KiB buffer, each over the last; returns
     * the first eight bytes of the last as a number (the same for the same rounds).
     */
    public static final CalcFunction SPIN = CalcFunction.of("hosts.spin", ROUNDS, RESULT, rounds -> {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            byte[] block = new byte[4096];
            for (long i = 0; i < rounds.value(); i++) {
                byte[] digest = sha.digest(block);
                System.arraycopy(digest, 0, block, (int) (i % 128) * 32, digest.length);
            }
            return new IntData(ByteBuffer.wrap(sha.digest(block)).getLong());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("no SHA-256 in this JVM", e);
        }
    });

    /** x + y. */
    public static final CalcFunction ADD =
            CalcFunction.of("hosts.add", X, Y, RESULT, (x, y) -> new IntData(x.value() + y.value()));

    /**
     * Submits {@code n} naps of {@code ms} and waits for them, then adds their results up one by
     * one from a new 0: result n × ms.
     */
    public static final class Relay extends WorkChain {

        public static final WorkChainDefinition<Relay> DEFINITION = new WorkChainDefinition<>(
                "hosts.relay",
                ProcessSpec.builder().input(N).input(MS).output(RESULT).build(),
                Outline.of(step(Relay::launch), step(Relay::sum)),
                Relay::new);

        void launch() {
            for (long i = 0; i < input(N).value(); i++) {
                appendToContext("naps", submit(NAP, Inputs.of(MS, input(MS))));
            }
        }

        void sum() {
            IntData total = new IntData(0);
            for (CalcFunctionNode nap : ctx().nodes("naps", CalcFunctionNode.class)) {
                total = run(ADD, Inputs.of(X, total, Y, (IntData) outputsOf(nap).get("result")))
                        .get(RESULT);
            }
            out(RESULT, total);
        }
    }

    @Override
    public String name() {
        return "hosts-tests";
    }

    @Override
    public List<ProcessDefinition> processes() {
        return List.of(NAP, SPIN, ADD, Relay.DEFINITION);
    }
}
