package dev.cairn.engine.testing;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.concurrent.atomic.AtomicInteger;

import dev.cairn.storage.testing.TcpProxy;

/**
 * What RabbitMQ sends its clients, passed on frame by frame except every {@code basic.cancel}: with it in a
 * {@link TcpProxy}, the broker drops a consumer (its queue deleted) and the client never hears of it, as
 * when the cancel is lost. Counts the cancels it swallowed.
 */
public final class SwallowedCancels implements TcpProxy.Pump {

    /** AMQP 0-9-1: a method frame, and basic.cancel's class and method ids. */
    private static final int METHOD_FRAME = 1;

    private static final int BASIC = 60;
    private static final int CANCEL = 30;
    /** Type, channel and size before a frame's payload; the end octet after it. */
    private static final int HEADER = 7;

    private final AtomicInteger swallowed = new AtomicInteger();

    public int count() {
        return swallowed.get();
    }

    @Override
    public void transfer(InputStream from, OutputStream to) throws IOException {
        DataInputStream in = new DataInputStream(from);
        byte[] header = new byte[HEADER];
        while (true) {
            try {
                in.readFully(header);
            } catch (EOFException end) {
                return;
            }
            int size = ((header[3] & 0xff) << 24)
                    | ((header[4] & 0xff) << 16)
                    | ((header[5] & 0xff) << 8)
                    | (header[6] & 0xff);
            byte[] rest = new byte[size + 1];
            in.readFully(rest);
            if (header[0] == METHOD_FRAME && size >= 4 && classAndMethod(rest) == (BASIC << 16 | CANCEL)) {
                swallowed.incrementAndGet();
                continue;
            }
            to.write(header);
            to.write(rest);
            to.flush();
        }
    }

    private static int classAndMethod(byte[] payload) {
        return ((payload[0] & 0xff) << 24)
                | ((payload[1] & 0xff) << 16)
                | ((payload[2] & 0xff) << 8)
                | (payload[3] & 0xff);
    }
}
