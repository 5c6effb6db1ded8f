import { createContext, useContext } from "react";

/** The CSP nonce of this request, for React Router's inline scripts. Empty in the browser. */
export const NonceContext = createContext("");
export const useNonce = () => useContext(NonceContext);
