// People's face: accounts, sign-in and sessions, profiles and saved addresses, the customer list.
// Other areas and routes import people only from here (docs/architecture.md).

export { createOrPromoteAdmin } from "./accounts/admin.server";
export { ProfileInput, getProfile, updateProfile } from "./accounts/profile.server";
export {
  SavedAddressError,
  SavedAddressInput,
  addSavedAddress,
  deleteSavedAddress,
  keepOrderAddress,
  listSavedAddresses,
  setDefaultSavedAddress,
  updateSavedAddress,
} from "./accounts/saved-addresses.server";
export { safeRedirect } from "./auth/auth-api.server";
export { getAuth } from "./auth/auth.server";
export { confirmEmail, signInWithLink } from "./auth/confirm-email.server";
export { getCurrentUser } from "./auth/current-user.server";
export type { CurrentUser } from "./auth/current-user.server";
export {
  ConfirmForm,
  EmailForm,
  ResetForm,
  SignInLinkForm,
  SignInForm,
  SignUpForm,
  parseForm,
  requestPasswordReset,
  resendConfirmation,
  resetPassword,
  signIn,
  signOut,
  signUp,
  verifySignInCode,
} from "./auth/flows.server";
export {
  confirmTwoFactor,
  disableTwoFactor,
  regenerateBackupCodes,
  startTwoFactor,
  twoFactorEnabled,
} from "./auth/two-factor.server";
export { CustomerActionError, CustomerActionInput, runCustomerAccountAction } from "./customers/account-actions.server";
export { customersCsvChunks } from "./customers/csv.server";
export { findCustomer, getCustomer } from "./customers/detail.server";
export { listCustomers, parseCustomerListQuery } from "./customers/list.server";
// The shopper's own data requests: the mailed confirmation links, the password check before a
// deletion, the guest's 'Your data' form and the owner's retention setting (docs/rules/personal-data.md).
export { DATA_LINK_TTL_MS, peekDataRequest, redeemDataRequest } from "./data-requests/links.server";
export type { DataRequest, DataRequestSubject } from "./data-requests/links.server";
export {
  DATA_REQUEST_PATH,
  TooManyDataRequests,
  accountHasPassword,
  holdsDataFor,
  mailAccountDeletionLink,
  requestGuestData,
  verifyAccountPassword,
} from "./data-requests/requests.server";
export { getRetentionSetting, saveRetentionSetting } from "./data-requests/retention.server";
export { ERASE_EXPIRED_ORDERS_TASK, personalDataJobs } from "./data-requests/jobs.server";
export { PRIVACY_AUDIT_PAGE_SIZE, emailSubjectRef, listPrivacyAudit, userSubjectRef } from "./privacy/audit.server";
export type { PrivacyActor, PrivacyAuditRow } from "./privacy/audit.server";
export {
  ACCOUNT_NOT_FOUND,
  ORDER_BEING_PAID,
  PrivacyRefusal,
  eraseAccount,
  eraseExpiredOrderData,
  eraseGuestData,
} from "./privacy/erase.server";
export type { EraseResult } from "./privacy/erase.server";
export { exportPersonalData } from "./privacy/export.server";
export type { ExportSubject } from "./privacy/export.server";
export { erasurePreview } from "./privacy/preview.server";
export type { ErasurePreview } from "./privacy/preview.server";
