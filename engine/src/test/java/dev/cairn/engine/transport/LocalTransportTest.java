package dev.cairn.engine.transport;

import java.nio.file.Path;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

/** The {@link TransportContract} on this machine. */
class LocalTransportTest extends TransportContract {

    private final Transport transport = new LocalTransport();

    @TempDir
    Path computer;

    @Override
    protected Transport transport() {
        return transport;
    }

    @Override
    protected String scratch() {
        return computer.toString();
    }

    @AfterEach
    void close() {
        transport.close();
    }
}
