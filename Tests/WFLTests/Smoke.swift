import XCTest
@testable import WFL
