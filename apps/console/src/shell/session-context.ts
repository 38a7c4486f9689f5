import { createContext, useContext } from 'react';
import type { PlatformClient } from '@platform-sdk/client';
import type { Session } from './session';

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside a signed-in page');
  return session;
}

export function useClient(): PlatformClient {
  return useSession().client;
}
