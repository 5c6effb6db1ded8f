// The catalogue's face: products, categories, variations and their stock levels, import, images and
// reviews. Other areas and routes import the catalogue only from here (docs/architecture.md).

export { resizedImage } from "./images/resized.server";
export {
  ImportRequestError,
  confirmImport,
  discardImport,
  receiveImportUpload,
} from "./import/import-jobs.server";
export { productsCsvChunks, productsExportFilename } from "./import/export-products.server";
export { jobProgress, latestJobProgress } from "./import/job-progress.server";
export { MultipartError, fileFromMultipart } from "./import/multipart.server";
export { STOCK_CHOICES } from "./import/sales-since-export.server";
export type { SalesSince, StockChoice } from "./import/sales-since-export.server";
export { formFile, readUploadForm } from "./media/form.server";
export { MigrationRequestError, startImageMigration } from "./media/migrate-images.server";
export { mediaFilePath, mediaStorageProblem } from "./media/serve.server";
export { UploadError, saveImageUpload } from "./media/upload.server";
export { idFrom, readActionBody } from "./products/admin-action.server";
export { CatalogInputError, UNIQUE_VIOLATION, pgErrorCode } from "./products/admin-errors.server";
export type { CatalogRefusal } from "./products/admin-errors.server";
export {
  createProduct,
  deleteProduct,
  getProductForEdit,
  listAdminProducts,
  parseAdminProductQuery,
  setProductActive,
  updateProduct,
} from "./products/admin-products.server";
export { bulkUpdateProducts } from "./products/bulk-edit.server";
export {
  CategoryInUseError,
  createCategory,
  deleteCategory,
  listActiveCategories,
  listCategories,
  renameCategory,
  setCategoryActive,
} from "./products/categories.server";
export { getLowStockDefault, saveLowStockDefault } from "./products/inventory-settings.server";
export { countLowStock, queueLowStockAlerts } from "./products/low-stock.server";
export type { LowStockAlert } from "./products/low-stock.server";
export {
  attachVariation,
  listProductVariations,
  removeProductVariation,
  updateProductVariation,
} from "./products/product-variations.server";
export { giveBackProductUnits, takeProductUnits } from "./products/stock-levels.server";
export { enableTypos, escapeLike, searchWords } from "./products/storefront-search.server";
export {
  getStorefrontProduct,
  listFeaturedProducts,
  listShopCategoryNames,
  listShopProducts,
  parseShopFilters,
  readActiveCounts,
} from "./products/storefront.server";
export type { ActiveCounts, ListingReads } from "./products/storefront.server";
export {
  VariationValuesUnavailable,
  addVariationValue,
  createVariationType,
  deleteVariationType,
  deleteVariationValue,
  listAttachableVariations,
  listVariationTypes,
  renameVariationType,
  renameVariationValue,
} from "./products/variations.server";
export { listAdminReviews, replyToReview, setReviewStatus } from "./reviews/moderation.server";
export { eraseReviewsOf } from "./reviews/privacy.server";
export { ReviewError } from "./reviews/review-error.server";
export {
  listApprovedReviews,
  reviewAbility,
  reviewsPageParam,
  submitReview,
} from "./reviews/reviews.server";
export {
  getLowestPriceSetting,
  lowestPricesBeforeReduction,
  recordPrices,
  saveLowestPriceSetting,
} from "./products/price-history.server";
