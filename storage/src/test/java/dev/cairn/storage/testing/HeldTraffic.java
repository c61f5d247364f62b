package dev.cairn.storage.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.util.concurrent.CountDownLatch;

/**
 * What a service sends its clients through a {@link TcpProxy}, passed on while open and held back (not
 * dropped) while {@link #hold held}: the connection stays up and the service counts the client as there,
 * but the client hears nothing until {@link #release}, as a stalled client or a congested link.
 */
public final class HeldTraffic implements TcpProxy.Pump {

    private volatile CountDownLatch open = new CountDownLatch(0);

    /** Holds back what the service sends from now on. */
    public void hold() {
        open = new CountDownLatch(1);
    }

    /** Passes on what was held, and what follows. */
    public void release() {
        open.countDown();
    }

    @Override
    public void transfer(InputStream from, OutputStream to) throws IOException {
        byte[] buffer = new byte[8192];
        int n;
        while ((n = from.read(buffer)) >= 0) {
            try {
                open.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while held");
            }
            to.write(buffer, 0, n);
            to.flush();
        }
    }
}
