package dev.cairn.engine.process;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import dev.cairn.errors.InvalidInputException;

/**
 * A work chain's program: steps, conditionals, loops and early returns, nested freely.
 * {@snippet :
 * Outline.of(
 *     step(MyChain::setup),
 *     loop(MyChain::notConverged, step(MyChain::iterate)),
 *     when(MyChain::failed, returnWith(ERROR_FAILED))
 *         .otherwise(step(MyChain::results)));
 * }
 * Blocks are numbered depth-first when the outline is built; a checkpoint names the
 * position as (block, index) frames, so the numbering must not change between releases
 * of a plugin while processes are in flight.
 */
public final class Outline<W extends WorkChain> {

    /** One instruction of a block. */
    public sealed interface Instruction<W extends WorkChain> permits Step, If, While, Return {}

    @FunctionalInterface
    public interface StepBody<W extends WorkChain> {
        void run(W chain) throws Exception;
    }

    @FunctionalInterface
    public interface Condition<W extends WorkChain> {
        boolean test(W chain) throws Exception;
    }

    public record Step<W extends WorkChain>(StepBody<W> body) implements Instruction<W> {}

    /** Branches tried in order; the first whose condition holds runs; {@code otherwise} may be empty. */
    public record If<W extends WorkChain>(List<Condition<W>> conditions, List<Block<W>> branches, Block<W> otherwise)
            implements Instruction<W> {

        /** Adds an {@code else if}. */
        @SafeVarargs
        public final If<W> elseWhen(Condition<W> condition, Instruction<W>... body) {
            List<Condition<W>> c = new ArrayList<>(conditions);
            c.add(condition);
            List<Block<W>> b = new ArrayList<>(branches);
            b.add(new Block<>(List.of(body)));
            return new If<>(c, b, otherwise);
        }

        @SafeVarargs
        public final If<W> otherwise(Instruction<W>... body) {
            return new If<>(conditions, branches, new Block<>(List.of(body)));
        }
    }

    public record While<W extends WorkChain>(Condition<W> condition, Block<W> body) implements Instruction<W> {}

    public record Return<W extends WorkChain>(ExitCode exitCode) implements Instruction<W> {}

    /** A sequence of instructions; its id is given when the outline is built. */
    public static final class Block<W extends WorkChain> {
        private final List<Instruction<W>> instructions;
        private int id = -1;

        Block(List<Instruction<W>> instructions) {
            this.instructions = List.copyOf(instructions);
        }

        public List<Instruction<W>> instructions() {
            return instructions;
        }

        public int id() {
            return id;
        }
    }

    private final Block<W> root;
    private final List<Block<W>> blocks = new ArrayList<>();

    private Outline(Block<W> root) {
        this.root = root;
        number(root);
    }

    @SafeVarargs
    public static <W extends WorkChain> Outline<W> of(Instruction<W>... instructions) {
        return new Outline<>(new Block<>(List.of(instructions)));
    }

    public static <W extends WorkChain> Step<W> step(StepBody<W> body) {
        return new Step<>(Objects.requireNonNull(body));
    }

    @SafeVarargs
    public static <W extends WorkChain> If<W> when(Condition<W> condition, Instruction<W>... body) {
        return new If<>(List.of(condition), List.of(new Block<>(List.of(body))), new Block<>(List.of()));
    }

    @SafeVarargs
    public static <W extends WorkChain> While<W> loop(Condition<W> condition, Instruction<W>... body) {
        return new While<>(condition, new Block<>(List.of(body)));
    }

    /** Ends the work chain here with {@code code}. */
    public static <W extends WorkChain> Return<W> returnWith(ExitCode code) {
        return new Return<>(Objects.requireNonNull(code));
    }

    /** Ends the work chain here, successfully. */
    public static <W extends WorkChain> Return<W> returnOk() {
        return new Return<>(ExitCode.OK);
    }

    public Block<W> root() {
        return root;
    }

    public Block<W> block(int id) {
        if (id < 0 || id >= blocks.size()) {
            throw new IllegalStateException("the outline has no block " + id + " (it has " + blocks.size() + ")");
        }
        return blocks.get(id);
    }

    private void number(Block<W> block) {
        if (block.id >= 0) {
            throw new InvalidInputException("an outline block is used twice; build each branch anew");
        }
        block.id = blocks.size();
        blocks.add(block);
        for (Instruction<W> i : block.instructions) {
            switch (i) {
                case If<W> branch -> {
                    branch.branches().forEach(this::number);
                    number(branch.otherwise());
                }
                case While<W> loop -> number(loop.body());
                case Step<W> s -> {}
                case Return<W> r -> {}
            }
        }
    }
}
