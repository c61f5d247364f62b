package dev.cairn.engine.shell;

/**
 * A shell job's parser that could not make its output; the job ends with
 * {@code ERROR_PARSER_FAILED} and this message. Not an error of Cairn's families: it never leaves
 * the parse, where it becomes the exit code.
 */
final class ParseFailure extends Exception {

    ParseFailure(String message) {
        super(message);
    }
}
