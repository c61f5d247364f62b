package dev.cairn.engine.process;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import dev.cairn.storage.errors.InvalidInputException;

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

    /** A step's code: a method of the work chain, usually given as {@code MyChain::setup}. */
    @FunctionalInterface
    public interface StepBody<W extends WorkChain> {
        /** Runs the step on a fresh instance of the chain; an exception fails the work chain. */
        void run(W chain) throws Exception;
    }

    /** A question the outline asks the work chain, usually a method reference ({@code MyChain::converged}). */
    @FunctionalInterface
    public interface Condition<W extends WorkChain> {
        /** Answers from the chain's inputs and context; an exception fails the work chain. */
        boolean test(W chain) throws Exception;
    }

    /**
     * Runs one step; made by {@link Outline#step}.
     *
     * @param body the step's code
     */
    public record Step<W extends WorkChain>(StepBody<W> body) implements Instruction<W> {}

    /**
     * Branches tried in order; the first whose condition holds runs; {@code otherwise} may be empty.
     * Made by {@link Outline#when}, then {@link #elseWhen} and {@link #otherwise}.
     *
     * @param conditions the conditions, asked in order
     * @param branches   the block of each condition
     * @param otherwise  the block run when no condition holds (empty when there is none)
     */
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

        /** Adds the {@code else}: what runs when no condition holds. */
        @SafeVarargs
        public final If<W> otherwise(Instruction<W>... body) {
            return new If<>(conditions, branches, new Block<>(List.of(body)));
        }
    }

    /**
     * Runs {@code body} while {@code condition} holds, asking before each pass; made by {@link Outline#loop}.
     *
     * @param condition asked before each pass
     * @param body      the block of one pass
     */
    public record While<W extends WorkChain>(Condition<W> condition, Block<W> body) implements Instruction<W> {}

    /**
     * Ends the work chain here; made by {@link Outline#returnWith} and {@link Outline#returnOk}.
     *
     * @param exitCode what the work chain ends with
     */
    public record Return<W extends WorkChain>(ExitCode exitCode) implements Instruction<W> {}

    /** A sequence of instructions; its id is given when the outline is built. */
    public static final class Block<W extends WorkChain> {
        private final List<Instruction<W>> instructions;
        private int id = -1;

        Block(List<Instruction<W>> instructions) {
            this.instructions = List.copyOf(instructions);
        }

        /** The block's instructions, in order. */
        public List<Instruction<W>> instructions() {
            return instructions;
        }

        /** The block's number in the outline (depth-first), which checkpoints name; -1 until the outline is built. */
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

    /**
     * The outline of {@code instructions}, run in order. Build it once per work chain type, in
     * its definition: this numbers the blocks, and a block (a branch built once, used twice) that
     * appears twice is refused.
     */
    @SafeVarargs
    public static <W extends WorkChain> Outline<W> of(Instruction<W>... instructions) {
        return new Outline<>(new Block<>(List.of(instructions)));
    }

    /** A step: a method of the work chain, run with the chain's inputs and context. */
    public static <W extends WorkChain> Step<W> step(StepBody<W> body) {
        return new Step<>(Objects.requireNonNull(body));
    }

    /** Runs {@code body} when {@code condition} holds; add {@code elseWhen} and {@code otherwise} for other cases. */
    @SafeVarargs
    public static <W extends WorkChain> If<W> when(Condition<W> condition, Instruction<W>... body) {
        return new If<>(List.of(condition), List.of(new Block<>(List.of(body))), new Block<>(List.of()));
    }

    /** Runs {@code body} while {@code condition} holds, asking before each pass (so possibly never). */
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

    /** The outermost block, numbered 0. */
    public Block<W> root() {
        return root;
    }

    /** The block numbered {@code id}: how the engine finds a checkpoint's position. */
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
