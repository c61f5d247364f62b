package dev.cairn.engine.transport;

/**
 * Opens the {@link Transport} a {@link TransportSpec} describes, on its own: it keeps nothing
 * after its caller closes it. An engine opens its transports from its {@link TransportPool}.
 */
public final class Transports {

    private Transports() {}

    /** For ssh, connects and authenticates now (see {@link SshTransport#connect}). */
    public static Transport open(TransportSpec spec) {
        return switch (spec) {
            case TransportSpec.Local local -> new LocalTransport(local.environment());
            case TransportSpec.Ssh ssh -> SshTransport.connect(ssh);
        };
    }
}
