/** The redirect-target rule lives in common/web: codes and domains (their root and not-found URLs) share it. */
export * from '../../common/web/redirect-target';
