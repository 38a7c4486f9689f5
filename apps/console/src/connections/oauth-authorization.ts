import type { PlatformClient } from '@platform-sdk/client';
import { ok } from '../shell/api';

/**
 * Starts the OAuth authorization of an `oauth2_code` connection through the API
 * (`POST /connections/oauth/start`) and sends the browser to the provider. The provider returns
 * it to the API's callback on this origin (the gateway serves the console and the API), which
 * brings it back to the Connections page with `?connection_id=&status=authorized|failed`.
 */
export async function authorizeConnection(client: PlatformClient, connectionId: string): Promise<void> {
  const origin = window.location.origin;
  const started = await ok(
    client.api.POST('/connections/oauth/start', {
      body: { connection_id: connectionId, redirect_uri: `${origin}/connections/oauth/callback`, return_url: `${origin}/console/connections` },
    }),
  );
  window.location.assign(started.authorization_url);
}
